/**
 * docs/deploy.md section 8 in code: the proxies' files edited by its words (section 4's nginx file
 * with its upstream and its webhook location, section 5's Caddyfile with every process named and
 * its `handle /momo/*` block), its rolling restart, and a process killed outright, each under a
 * steady stream of the service's notifications (notification-stream.ts).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { openOrders, settleSteadily } from '../support/steady-payments.js';
import type { Fleet, FleetProcess } from './fleet.js';
import { guideBlock, replaceBlock } from './guide.js';
import { settleThrough } from './notification-stream.js';

/** Section 4's nginx file with section 8's upstream in place of its own and its webhook location after `location /momo/`. */
export async function severalProcessesNginxFile(guideFile: string): Promise<string> {
  const [upstream, webhook] = await Promise.all([guideBlock('nginx-upstream'), guideBlock('nginx-webhook')]);
  const withUpstream = replaceBlock(guideFile, 'upstream momo_checkout {', () => `${upstream}\n`);
  return replaceBlock(withUpstream, '    location /momo/ {', (block) => `${block}\n${webhook}\n`);
}

/** Section 5's Caddyfile with every process named in each `reverse_proxy`, and section 8's `handle /momo/*` block. */
export async function severalProcessesCaddyFile(guideFile: string): Promise<string> {
  const momo = await guideBlock('Caddyfile-momo');
  const everyProcess = guideFile.split('reverse_proxy 127.0.0.1:3000').join('reverse_proxy 127.0.0.1:3000 127.0.0.1:3001');
  assert.notEqual(everyProcess, guideFile, "section 5's Caddyfile proxies to 127.0.0.1:3000");
  return replaceBlock(everyProcess, '\thandle /momo/* {', () => `${momo}\n`);
}

/** A duration the guide writes in seconds in `block` (`fail_timeout=5s`, `health_interval 1s`), in ms. */
export async function guideSeconds(block: string, setting: RegExp): Promise<number> {
  const seconds = setting.exec(await guideBlock(block));
  assert.ok(seconds, `docs/deploy.md's ${block} block sets ${setting.source} in seconds`);
  return Number(seconds[1]) * 1000;
}

/**
 * How long section 8's rolling restart waits after a process is ready before it stops the next:
 * twice nginx's `fail_timeout` in the guide's upstream. nginx leaves a process out for
 * `fail_timeout` after its last refused connection, which may be just before it was ready, and
 * counts in whole seconds; were the next process stopped before that, nginx would have no process
 * to send to and answer 502 (5 of 549 lost in a run that waited `fail_timeout` alone).
 */
export const guidePauseMs = async () => 2 * (await guideSeconds('nginx-upstream', /fail_timeout=(\d+)s/));

/**
 * Section 8's rolling restart: one process at a time, stopped as systemd stops it (SIGTERM: its
 * /readyz answers 503 at once, it answers what it accepted and exits 0), started again, ready
 * (/readyz 200), and `pauseMs` more before the next.
 */
export async function rollingRestart(processes: readonly FleetProcess[], pauseMs: number): Promise<void> {
  for (const [index, each] of processes.entries()) {
    if (index > 0) await sleep(pauseMs);
    assert.equal(await each.stop(), 0, `process ${index + 1} stopped cleanly`);
    await each.start();
  }
}

/**
 * A process killed outright (a crash, the OOM killer), started again (systemd's Restart=) `downMs`
 * later. Resolves with when it was killed and when it was gone (its exit seen): what it had
 * accepted and not answered was sent between the two or before.
 */
export async function killAndRestart(process: FleetProcess, downMs: number): Promise<{ killedAt: number; goneAt: number }> {
  const killedAt = Date.now();
  await process.kill9();
  const goneAt = Date.now();
  await sleep(downMs);
  await process.start();
  return { killedAt, goneAt };
}

/**
 * Payments made for `seconds` of stream at `perSecond`, then the stream, with `disruption` inside
 * it (a second of steady stream before and after). The disruption starts on one of the stream's
 * beats, so a notification is on its way as the process stops or dies. Resolves with the orders
 * settled.
 */
export async function underSteadyStream(fleet: Fleet, options: { perSecond: number; seconds: number }, disruption: () => Promise<unknown>): Promise<string[]> {
  // Made through the first process directly (the server API is not public).
  const shop = { publicUrl: `${fleet.processes[0]!.url}/momo`, serverSecret: fleet.serverSecret, origin: fleet.origin };
  const orderIds = await openOrders(shop, `fleet-${randomBytes(4).toString('hex')}`, options.perSecond * options.seconds);
  const stream = settleSteadily(settleThrough(fleet), orderIds, options.perSecond);
  try {
    await sleep(1000);
    await disruption();
    await sleep(1000);
  } finally {
    await stream.stop();
  }
  return stream.settled;
}
