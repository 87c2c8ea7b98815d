/**
 * The status stream's heartbeat (page-routes/event-stream.ts), and `MOMO_HEARTBEAT_MS`
 * (options-from-env.ts): how often an open status stream gets a heartbeat (the `heartbeatMs`
 * option, default 15 s). Proxies and load balancers cut a connection idle for longer than their
 * timeout (AWS ALB 60 s, Cloudflare 100 s, Heroku 55 s: docs/deploy.md); the default is well
 * inside all of them, so this is only for a proxy that cuts sooner.
 */

/** The default `heartbeatMs`: under a quarter of the shortest of those idle timeouts (55 s). */
export const defaultHeartbeatMs = 15_000;

/** The bounds: under 1 s floods every open stream; above 50 s is cut by Heroku's 55 s router. */
export const heartbeatBoundsMs = { min: 1_000, max: 50_000 } as const;

/** Undefined when unset (the companion's default); calls `problem` with what to write instead. */
export function heartbeatFrom(text: string, problem: (message: string) => void): number | undefined {
  if (text === '') return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < heartbeatBoundsMs.min || value > heartbeatBoundsMs.max) {
    problem(
      `MOMO_HEARTBEAT_MS is ${JSON.stringify(text)}: set a number of milliseconds from ${heartbeatBoundsMs.min} to ${heartbeatBoundsMs.max}, under half of the shortest idle timeout in front of the companion (e.g. 15000), or leave it out (15000).`,
    );
    return undefined;
  }
  return value;
}
