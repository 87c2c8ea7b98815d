/**
 * Issue 52: docs/deploy.md section 8 behind Debian's Caddy (2.6). Two `serve` processes on one
 * PostgreSQL, each on a listening socket held for it alone (section 8's `momo-checkout@.socket`
 * instances: Debian's systemd-socket-activate and the socket supervisor, which starts it again on
 * its socket), behind section 5's Caddyfile with every process named and section 8's
 * `handle /momo/*` block (only the guide's placeholders replaced), each process with section 8's
 * MOMO_STOP_DELAY_MS so that Caddy's health check sees its /readyz turn 503 before it stops
 * accepting; the sandbox sends a steady 20 notifications a second through Caddy over https, each
 * once. Over a rolling restart of both processes: no notification lost, every payment completed
 * once, the merchant told once. Over one killed with SIGKILL: lost only what it had accepted and
 * not answered (Caddy 2.6 sends no POST again), nothing sent to it while it was down (that waits in
 * its socket's queue), the rest completed once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { guideCaddySite, startCaddy } from './caddy-runner.js';
import { startFleet, type Fleet } from './fleet.js';
import { guideBlock, parseEnvFile } from './guide.js';
import { deliveriesOf, provesNothingLost } from './notification-stream.js';
import { guidePauseMs, killAndRestart, rollingRestart, severalProcessesCaddyFile, underSteadyStream } from './several-processes.js';
import { inFlightAtKill } from '../support/steady-payments.js';

const perSecond = 20;

describe("docs/deploy.md section 8: two processes on one PostgreSQL, each on its own socket, behind the guide's Caddyfile", () => {
  let fleet: Fleet;
  let site: string;
  let pauseMs: number;

  before(async () => {
    fleet = await startFleet({ count: 2, env: parseEnvFile(await guideBlock('caddy-env')), heldSockets: true });
    pauseMs = await guidePauseMs();
    site = await guideCaddySite(fleet, [['127.0.0.1:3001', `127.0.0.1:${fleet.processes[1]!.port}`]], severalProcessesCaddyFile);
    await startCaddy(fleet, 'caddy', site, fleet.proxyPort);
  });

  after(async () => {
    await fleet?.close();
  });

  it("runs section 5's Caddyfile with every process named and section 8's handle /momo/*, only the placeholders replaced", () => {
    const [first, second] = fleet.processes;
    const both = `reverse_proxy 127.0.0.1:${first!.port} 127.0.0.1:${second!.port}`;
    const companion = [...site.matchAll(/reverse_proxy [^{\n]*/g)].map((match) => match[0].trim()).filter((line) => !line.endsWith(`:${fleet.shopPort}`));
    assert.deepEqual(new Set(companion), new Set([both]), `every reverse_proxy of the companion names both processes:\n${site}`);
    const momo = site.slice(site.indexOf('\thandle /momo/* {'));
    for (const line of ['health_uri /readyz', 'health_interval 1s', 'lb_try_duration 5s']) assert.ok(momo.includes(`\t\t\t${line}\n`), `the companion's handle has ${line}`);
    assert.doesNotMatch(site, /shop\.example|:3000|:3001|:8000|letsencrypt/);
  });

  it("holds each process's socket as section 8's template units do: its own port, its own socket, the service tied to it", async () => {
    const socket = await guideBlock('momo-checkout@.socket');
    // The fleet holds 127.0.0.1:<port> for each process and passes it as momo-checkout@<port>.socket.
    assert.equal(/^ListenStream=(.+)$/m.exec(socket)?.[1], '127.0.0.1:%i', "each instance's socket is on its own port, its instance name");
    assert.doesNotMatch(socket, /^(FileDescriptorName|Accept)=/m, "one socket, passed under its unit's name, to one service process");
    const unit = await guideBlock('momo-checkout@.service-unit');
    assert.match(unit, /^Requires=momo-checkout@%i\.socket$/m, 'each process needs its own socket');
    assert.match(unit, /^After=.*\bmomo-checkout@%i\.socket\b/m);
  });

  it('loses no notification over a rolling restart of both processes (20 a second)', async () => {
    const settled = await underSteadyStream(fleet, { perSecond, seconds: 50 }, () => rollingRestart(fleet.processes, pauseMs));
    await provesNothingLost(fleet, fleet.processes[1]!, settled);
  });

  it('loses, of a process killed with SIGKILL on its socket, at most what it had accepted and not answered', async () => {
    // Caddy 2.6 cannot send a POST again once it has tried one process (it no longer has the
    // body): a notification the process had read when it died is lost. What Caddy sends it while
    // it is down waits in its socket's queue for systemd's restart, and is answered then.
    let kill = { killedAt: 0, goneAt: 0 };
    const settled = await underSteadyStream(fleet, { perSecond, seconds: 15 }, async () => (kill = await killAndRestart(fleet.processes[0]!, 3000)));
    const { lost } = await deliveriesOf(fleet, settled);
    // In flight at the kill, as socket-activation.test.ts counts them.
    const inFlight = inFlightAtKill(lost, kill);
    // Written into docs/deploy.md section 8: what Caddy 2.6 loses of a process killed on its socket.
    console.log(`Caddy, one of two processes killed on its socket: ${lost.length} of ${settled.length} notifications lost, sent ${lost.map((delivery) => delivery.at - kill.killedAt).join(', ')} ms after the kill and failed ${lost.map((delivery) => delivery.endedAt - kill.killedAt).join(', ')} ms after it (gone ${kill.goneAt - kill.killedAt} ms after it)`);
    const other = lost.filter((delivery) => !inFlight.includes(delivery));
    assert.deepEqual(other.map((delivery) => `${delivery.orderId} sent ${delivery.at - kill.killedAt} ms after the kill, failed ${delivery.endedAt - kill.killedAt} ms after it: ${delivery.error}`), [], `nothing lost but what the killed process had accepted (gone ${kill.goneAt - kill.killedAt} ms after the kill)`);
    const lostIds = new Set(lost.map((delivery) => delivery.orderId));
    await provesNothingLost(fleet, fleet.processes[1]!, settled.filter((orderId) => !lostIds.has(orderId)), { allowRedelivery: true });
  });
});
