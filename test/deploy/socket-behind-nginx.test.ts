/**
 * Issue 52 on one machine, as docs/deploy.md lays it out for a shop with one process: section 3's
 * socket unit holds the listening socket (Debian's `systemd-socket-activate` and the socket
 * supervisor, test/deploy/fleet.ts `heldSockets`) and section 4's nginx file is in front, with its
 * kept-alive connections to the process. While the sandbox sends a steady 20 notifications a
 * second through nginx over https, each once, the process is restarted as `systemctl restart`
 * does, several times: what nginx sends while no process runs waits in the socket's queue, and a
 * stopping process answers what it accepted on nginx's connections with `Connection: close`, so
 * nothing is lost, every payment is completed once and the merchant told once.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/free-port.js';
import { startFleet, type Fleet } from './fleet.js';
import { startNginx } from './nginx-runner.js';
import { provesNothingLost } from './notification-stream.js';
import { underSteadyStream } from './several-processes.js';

describe("docs/deploy.md sections 3 and 4: one process on the socket unit's socket behind the guide's nginx file", () => {
  let fleet: Fleet;

  before(async () => {
    fleet = await startFleet({ count: 1, heldSockets: true });
    await startNginx(fleet, 'nginx', { port: fleet.proxyPort, httpPort: await freePort() });
  });

  after(async () => {
    await fleet?.close();
  });

  it('loses no notification over three restarts (20 a second)', async () => {
    const [serve] = fleet.processes;
    const settled = await underSteadyStream(fleet, { perSecond: 20, seconds: 40 }, async () => {
      for (let restart = 0; restart < 3; restart++) {
        if (restart > 0) await sleep(2_000);
        assert.equal(await serve!.stop(), 0, `stop ${restart + 1} exited cleanly`);
        await serve!.start();
      }
    });
    await provesNothingLost(fleet, serve!, settled);
  });
});
