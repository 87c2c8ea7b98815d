/**
 * Restart soak (issue 52): notifications refused per restart of `momo-checkout serve`, before and
 * after the socket unit. The sandbox settles payments at a steady 20 a second, each with its
 * one-shot notification (§6.4), while serve (file store, from source) is restarted
 * `RESTART_SOAK_RESTARTS` times (SIGTERM, the next process started the moment the last one
 * exits, as systemd's `Restart=` does):
 *
 * - before: serve binds its own port (docs/deploy.md's unit until 0.5.0), closed while none runs;
 * - after: serve takes the socket a service manager holds (Debian's `systemd-socket-activate`,
 *   systemd's protocol; docs/deploy.md section 3's `momo-checkout.socket`).
 *
 * Prints each layout's refused notifications in all and per restart, with the load average
 * beside them: run it alone on a quiet machine (`npm run bench -- restart`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox } from '../src/sandbox/index.js';
import { freePort } from '../test/support/free-port.js';
import { merchantWebhookSecret, startMerchantReceiver } from '../test/support/merchant-receiver.js';
import { holdSocket, ownPort, type ProcessManager } from '../test/support/process-managers.js';
import { openOrders, refusedNotifications, settleIn, settleSteadily, shopServeEnv } from '../test/support/steady-payments.js';
import { until } from '../test/support/until.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const RESTARTS = Number(process.env.RESTART_SOAK_RESTARTS ?? 10);
const PER_SECOND = 20;
/** Time between two restarts: a deploy's pace is slower, a crash loop's faster. */
const BETWEEN_MS = 2_000;
const serverSecret = 'b'.repeat(64);
const origin = 'http://shop.test';

async function soak(sandbox: RunningSandbox, layout: 'own port' | 'socket', receiverUrl: string): Promise<{ refused: number; notifications: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'momo-restart-soak-'));
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}/momo`;
  const env = shopServeEnv(sandbox, { port, origin, serverSecret, dataDir: join(dir, 'data'), merchantWebhookUrl: receiverUrl, merchantWebhookSecret });
  const manager: ProcessManager = layout === 'socket' ? await holdSocket(port, env, dir) : ownPort(env, dir);
  const serve = [process.execPath, '--import', 'tsx', join(root, 'src/server/cli.ts'), 'serve'];
  let pid = await manager.start(serve);
  try {
    await until('serve to be ready', async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, 30_000);
    const orders = await openOrders({ publicUrl, serverSecret, origin }, `soak-${layout.replace(' ', '-')}-${port}`, ((RESTARTS + 1) * BETWEEN_MS * PER_SECOND) / 1000);
    const steady = settleSteadily(settleIn(sandbox), orders, PER_SECOND);
    for (let restart = 0; restart < RESTARTS; restart++) {
      await new Promise((resolve) => setTimeout(resolve, BETWEEN_MS));
      process.kill(pid, 'SIGTERM');
      await manager.exited(pid);
      pid = await manager.start(serve);
    }
    await steady.finish();
    return { refused: refusedNotifications(sandbox, orders).length, notifications: orders.length };
  } finally {
    process.kill(pid, 'SIGKILL');
    await manager.exited(pid);
    await manager.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchRestartSoak(): Promise<Figure[]> {
  const sandbox = await startSandbox({ port: 0, log: () => {} });
  const receiver = await startMerchantReceiver();
  const figures: Figure[] = [];
  try {
    for (const [layout, label] of [['own port', 'serve on its own port (before)'], ['socket', "serve on the service manager's socket"]] as const) {
      const { refused, notifications } = await soak(sandbox, layout, receiver.url);
      figures.push(
        { name: `${label}: notifications`, value: notifications, unit: `during ${RESTARTS} restarts` },
        { name: `${label}: refused`, value: refused, unit: 'notifications' },
        { name: `${label}: refused per restart`, value: refused / RESTARTS, unit: 'notifications' },
      );
    }
  } finally {
    await receiver.close();
    await sandbox.close();
  }
  figures.push({ name: 'load average (1 min) at the end', value: loadavg()[0]!, unit: '' });
  return figures;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const figure of await benchRestartSoak()) console.log(`${figure.name.padEnd(58)} ${String(Number.isInteger(figure.value) ? figure.value : figure.value.toFixed(2)).padStart(8)} ${figure.unit}`);
}
