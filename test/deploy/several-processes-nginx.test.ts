/**
 * Issue 52: docs/deploy.md section 8 behind Debian's nginx. Two `serve` processes on one
 * PostgreSQL, behind section 4's nginx file with section 8's upstream and webhook location (only
 * the guide's placeholders replaced); the sandbox sends a steady 20 notifications a second through
 * nginx over https, each once. Over a rolling restart of both processes, and over one killed with
 * SIGKILL and started again: no notification lost, every payment completed once, the merchant told
 * once. Then section 8's measure of what is still lost: section 4's file alone (one process, no
 * second one), that process killed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/free-port.js';
import { startFleet, type Fleet } from './fleet.js';
import { startNginx, type RunningNginx } from './nginx-runner.js';
import { deliveriesOf, provesNothingLost } from './notification-stream.js';
import { guidePauseMs, killAndRestart, rollingRestart, severalProcessesNginxFile, underSteadyStream } from './several-processes.js';

const perSecond = 20;

describe("docs/deploy.md section 8: two processes on one PostgreSQL behind the guide's nginx file", () => {
  let fleet: Fleet;
  let nginx: RunningNginx;
  let pauseMs: number;

  before(async () => {
    fleet = await startFleet({ count: 2 });
    pauseMs = await guidePauseMs();
    nginx = await startNginx(fleet, 'nginx', { port: fleet.proxyPort, httpPort: await freePort() }, [['127.0.0.1:3001', `127.0.0.1:${fleet.processes[1]!.port}`]], severalProcessesNginxFile);
  });

  after(async () => {
    await fleet?.close();
  });

  it("runs section 4's file with section 8's upstream and webhook location, only the placeholders replaced", () => {
    const [first, second] = fleet.processes;
    assert.match(nginx.site, new RegExp(`server 127\\.0\\.0\\.1:${first!.port} max_fails=1 fail_timeout=5s;\\n\\s+server 127\\.0\\.0\\.1:${second!.port} max_fails=1 fail_timeout=5s;`));
    assert.match(nginx.site, /location = \/momo\/webhook \{[^}]*proxy_next_upstream error timeout non_idempotent;/);
    assert.equal(nginx.site.match(/non_idempotent/g)?.length, 1, 'only the notifications are sent again once their request went out');
    assert.doesNotMatch(nginx.site, /shop\.example\/|:3000|:3001|:8000|letsencrypt/);
  });

  it('loses no notification over a rolling restart of both processes (20 a second)', async () => {
    const settled = await underSteadyStream(fleet, { perSecond, seconds: 45 }, () => rollingRestart(fleet.processes, pauseMs));
    await provesNothingLost(fleet, fleet.processes[1]!, settled);
  });

  it('loses no notification when one process is killed with SIGKILL and started again (20 a second)', async () => {
    const settled = await underSteadyStream(fleet, { perSecond, seconds: 15 }, () => killAndRestart(fleet.processes[0]!, 3000));
    await provesNothingLost(fleet, fleet.processes[1]!, settled, { allowRedelivery: true });
  });

  it("with one process and no second one (section 4's file alone), loses what arrives while it is down", async () => {
    await nginx.stop();
    const alone = await startNginx(fleet, 'nginx-alone', { port: fleet.proxyPort, httpPort: await freePort() });
    try {
      const down = { from: 0, to: 0 };
      const settled = await underSteadyStream(fleet, { perSecond, seconds: 20 }, async () => {
        down.from = Date.now();
        await fleet.processes[0]!.kill9();
        await fleet.processes[0]!.start();
        down.to = Date.now();
      });
      const { lost } = await deliveriesOf(fleet, settled);
      const expected = ((down.to - down.from) / 1000) * perSecond;
      // Written into docs/deploy.md section 8: what a process gone with no second one costs.
      console.log(`one process killed and started again: down ${down.to - down.from} ms (its start ${fleet.processes[0]!.startMs} ms), ${lost.length} of ${settled.length} notifications lost (${lost[0]?.httpStatus ?? lost[0]?.error})`);
      assert.ok(lost.length >= expected / 2, `the notifications that arrived while it was down are lost (${lost.length}, about ${Math.round(expected)} expected)`);
      assert.ok(lost.every((delivery) => delivery.httpStatus === 502), 'each lost one answered 502 by nginx, which had no process to send it to');
    } finally {
      await alone.stop();
    }
  });
});
