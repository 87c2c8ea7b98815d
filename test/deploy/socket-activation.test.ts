/**
 * The door never closes (issue 52): `momo-checkout serve` on a listening socket the service manager
 * holds (docs/deploy.md section 3's `momo-checkout.socket`). Debian's `systemd-socket-activate`
 * binds the socket and passes it with systemd's protocol; test/support/socket-supervisor.ts starts
 * serve again and again on it, as `Restart=always` does. While the sandbox settles payments at a
 * steady 20 a second, each with its one-shot notification, serve is restarted three times
 * (SIGTERM), upgraded once (SIGTERM, then another build, compiled JavaScript as the package ships
 * it, on the same socket) and killed once with `kill -9`: no notification may be refused, every
 * payment is completed once, and the merchant's endpoint hears each transition.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { run } from '../support/packed.js';
import { tempDir } from '../crash/support.js';
import { freePort } from '../support/free-port.js';
import { holdSocket } from '../support/process-managers.js';
import { merchantWebhookSecret, startMerchantReceiver, type MerchantReceiver } from '../support/merchant-receiver.js';
import { inFlightAtKill, openOrders, refusedNotifications, settleIn, settleSteadily, shopServeEnv, type Shop } from '../support/steady-payments.js';
import { until } from '../support/until.js';
import { guideBlock, root } from './guide.js';

const shopOrigin = 'http://shop.test';
const serverSecret = 'a'.repeat(64);

let sandbox: RunningSandbox;
let receiver: MerchantReceiver;
/** The upgrade's build: this version compiled by tsc into a package folder of its own. */
let upgradeCli: string;
const dir = tempDir('momo-socket-');

before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
  receiver = await startMerchantReceiver();
  const pkg = join(dir, 'upgrade', 'node_modules', 'momo-checkout');
  mkdirSync(pkg, { recursive: true });
  copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
  // Its dependencies are this repository's (the same lockfile): resolved through a link.
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'));
  await run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--noCheck', '--declaration', 'false', '--declarationMap', 'false', '--sourceMap', 'false', '--outDir', join(pkg, 'dist')], root);
  upgradeCli = join(pkg, 'dist/server/cli.js');
});
after(async () => {
  await sandbox?.close();
  await receiver?.close();
});

describe('serve on the service manager\'s socket', () => {
  it('three restarts, an upgrade and a kill -9 under a steady 20 notifications a second refuse none', { timeout: 240_000 }, async (t) => {
    // The guide's socket unit, its address replaced by a free port (docs/deploy.md, what the tests replace).
    const socketUnit = await guideBlock('momo-checkout.socket');
    assert.equal(/^ListenStream=(.+)$/m.exec(socketUnit)?.[1], '127.0.0.1:3000', 'the socket listens where serve would (HOST:PORT)');
    assert.doesNotMatch(socketUnit, /^(FileDescriptorName|Accept)=/m, 'one socket, passed under the unit\'s name, to one service process');
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}/momo`;
    const env = {
      ...shopServeEnv(sandbox, { port, origin: shopOrigin, serverSecret, dataDir: join(dir, 'data'), merchantWebhookUrl: receiver.url, merchantWebhookSecret }),
      // Not used: the socket comes from the service manager (a port nobody listens on, to show it).
      PORT: String(await freePort()),
    };
    const fromSource = [process.execPath, '--import', 'tsx', join(root, 'src/server/cli.ts'), 'serve'];
    const upgraded = [process.execPath, upgradeCli, 'serve'];
    const manager = await holdSocket(port, env, dir);
    const ready = () => until('serve to be ready', async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, 30_000);
    let pid = 0;
    try {
      pid = await manager.start(fromSource);
      await ready();
      const shop: Shop = { publicUrl, serverSecret, origin: shopOrigin };
      const opened = await openOrders(shop, `door-${port}`, 600);

      const steady = settleSteadily(settleIn(sandbox), opened, 20);
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // What systemd does on `systemctl restart` (and Restart=always after a crash): the old
      // process ends, the next one starts on the same socket.
      const timeline: string[] = [];
      let killedAt = 0;
      let deadAt = 0;
      const t0 = Date.now();
      const replace = async (signal: 'SIGTERM' | 'SIGKILL', argv: string[]) => {
        timeline.push(`${Date.now() - t0} ms: ${signal} to ${pid}`);
        process.kill(pid, signal);
        await manager.exited(pid);
        timeline.push(`${Date.now() - t0} ms: ${pid} exited`);
        pid = await manager.start(argv);
        timeline.push(`${Date.now() - t0} ms: started ${pid}`);
      };
      // Each operation hits a process that has started and is taking the stream, the stop under
      // test. On a busy machine a fixed pause often hit one whose code was still loading: it
      // stopped before listening (test/server/commands/serve.test.ts covers that case).
      const readyNow = async () => {
        await ready();
        timeline.push(`${Date.now() - t0} ms: ${pid} ready`);
      };
      const running = async () => {
        await readyNow();
        await pause(1_000);
      };
      for (let restart = 0; restart < 3; restart++) {
        await running();
        await replace('SIGTERM', fromSource);
      }
      await running();
      await replace('SIGTERM', upgraded);
      await running();
      killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      await manager.exited(pid);
      deadAt = Date.now();
      pid = await manager.start(upgraded);
      // The stream runs through the restart after the kill, then stops: it fails if the orders
      // ran out first (every operation must happen while notifications arrive).
      await readyNow();
      const orders = await steady.stop();

      // A kill -9 ends the requests the process had accepted and not yet answered: those, in flight
      // at that instant, are the only ones a single process can lose (docs/deploy.md says so).
      // Nothing else may fail, and nothing may be refused: the socket never closes.
      const failed = refusedNotifications(sandbox, orders);
      const inFlight = inFlightAtKill(failed, { killedAt, goneAt: deadAt });
      // The whole of serve's log, its times in ISO: t0 below lines them up with the timeline's.
      const explain = () =>
        `t0 ${new Date(t0).toISOString()}\n${timeline.join('\n')}\n${JSON.stringify(failed.map((attempt) => [attempt.at - t0, attempt.endedAt - t0, attempt.orderId, attempt.error]))}\n${manager.logs()}`;
      assert.deepEqual(failed.filter((attempt) => !inFlight.includes(attempt)), [], `no notification refused or lost but those in flight at the kill:\n${explain()}`);
      t.diagnostic(`${orders.length} notifications, ${inFlight.length} in flight at the kill -9 lost, none refused; ${timeline.join(', ')}`);
      // Every other outcome reached the shop; one lost at the kill may too, when the process had
      // kept it before dying (the inbox), never twice.
      const mustComplete = orders.filter((orderId) => !inFlight.some((attempt) => attempt.orderId === orderId));
      const reported = () => new Set(receiver.received().filter((update) => update.state === 'completed').map((update) => update.orderId));
      await until('every payment to be completed and reported', () => mustComplete.every((orderId) => reported().has(orderId)), 60_000).catch((error: Error) => {
        throw new Error(`${error.message}: ${mustComplete.filter((orderId) => reported().has(orderId)).length} of ${mustComplete.length}\n${manager.logs()}`);
      });
      const completed = receiver.received().filter((update) => update.state === 'completed');
      // Each transition has one idempotency key and one webhook id, however often it was sent.
      const transitions = new Map<string, Set<string>>();
      for (const update of completed) transitions.set(update.idempotencyKey, (transitions.get(update.idempotencyKey) ?? new Set()).add(update.webhookId));
      assert.equal(transitions.size, reported().size, 'one completed transition per order');
      assert.ok([...transitions.values()].every((ids) => ids.size === 1), 'each transition told under one webhook id');
    } finally {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await manager.close();
    }
  });
});
