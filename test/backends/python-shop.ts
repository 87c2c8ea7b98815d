/** docs/backends/python as a shop: shop.py (http.server) in its folder, run by python3. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Backend } from './harness.js';

/** The plain Python shop's files in `dir` (today's docs, or an earlier release's copy). */
export function pythonShopIn(dir: string): Backend {
  return {
    start: (port, env) =>
      spawn('python3', [join(dir, 'shop.py')], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', PORT: String(port), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    checkoutPath: (orderId, amount) => `/checkout?order=${encodeURIComponent(orderId)}&amount=${amount}`,
    webhookPath: '/webhook',
  };
}
