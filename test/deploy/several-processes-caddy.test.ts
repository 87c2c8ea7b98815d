/**
 * Issue 52: docs/deploy.md section 8 behind Debian's Caddy (2.6). Two `serve` processes on one
 * PostgreSQL, behind section 5's Caddyfile with every process named and section 8's
 * `handle /momo/*` block (only the guide's placeholders replaced), each process with section 8's
 * MOMO_STOP_DELAY_MS so that Caddy's health check sees its /readyz turn 503 before it stops
 * accepting; the sandbox sends a steady 20 notifications a second through Caddy over https, each
 * once. Over a rolling restart of both processes: no notification lost, every payment completed
 * once, the merchant told once. Over one killed with SIGKILL: lost only what Caddy sent it before
 * its health check left it out (Caddy 2.6 sends no POST again), the rest completed once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { guideCaddySite, startCaddy } from './caddy-runner.js';
import { startFleet, type Fleet } from './fleet.js';
import { guideBlock, parseEnvFile } from './guide.js';
import { deliveriesOf, provesNothingLost } from './notification-stream.js';
import { guideSeconds, guidePauseMs, killAndRestart, rollingRestart, severalProcessesCaddyFile, underSteadyStream } from './several-processes.js';

const perSecond = 20;

describe("docs/deploy.md section 8: two processes on one PostgreSQL behind the guide's Caddyfile", () => {
  let fleet: Fleet;
  let site: string;
  let pauseMs: number;

  before(async () => {
    fleet = await startFleet({ count: 2, env: parseEnvFile(await guideBlock('caddy-env')) });
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

  it('loses no notification over a rolling restart of both processes (20 a second)', async () => {
    const settled = await underSteadyStream(fleet, { perSecond, seconds: 50 }, () => rollingRestart(fleet.processes, pauseMs));
    await provesNothingLost(fleet, fleet.processes[1]!, settled);
  });

  it("loses, of a process killed with SIGKILL, only what Caddy sends it before its health check leaves it out", async () => {
    // Caddy 2.6 cannot send a POST again once it has tried one process (it no longer has the
    // body): the notifications sent to the dead process until its next health check are lost.
    const healthIntervalMs = await guideSeconds('Caddyfile-momo', /health_interval (\d+)s/);
    let killedAt = 0;
    const settled = await underSteadyStream(fleet, { perSecond, seconds: 15 }, async () => (killedAt = await killAndRestart(fleet.processes[0]!, 3000)));
    const { lost } = await deliveriesOf(fleet, settled);
    // Written into docs/deploy.md section 8: what Caddy 2.6 loses of a process killed outright.
    console.log(`Caddy, one of two processes killed: ${lost.length} of ${settled.length} notifications lost, ${lost.map((delivery) => delivery.at - killedAt).join(', ')} ms after the kill`);
    const late = lost.filter((delivery) => delivery.at > killedAt + healthIntervalMs + 1000);
    assert.deepEqual(late.map((delivery) => `${delivery.orderId} ${delivery.at - killedAt} ms after the kill: ${delivery.error}`), [], `nothing lost once the health check (every ${healthIntervalMs} ms) left the dead process out`);
    const lostIds = new Set(lost.map((delivery) => delivery.orderId));
    await provesNothingLost(fleet, fleet.processes[1]!, settled.filter((orderId) => !lostIds.has(orderId)), { allowRedelivery: true });
  });
});
