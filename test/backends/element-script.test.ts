/**
 * Issue 41: the plain PHP and Python shops loaded the element from a CDN the package is not
 * published on. Each now serves the package's own file itself (MOMO_ELEMENT_FILE), the file its
 * page pins with `integrity`, at the address its page names by default.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/free-port.js';
import { root } from './harness.js';

const shops = [
  { name: 'PHP', file: 'docs/backends/php/checkout.php', path: '/momo-checkout.php', start: (port: number, env: Record<string, string>) => spawn('php', ['-S', `127.0.0.1:${port}`, '-t', join(root, 'docs/backends/php')], { env, stdio: 'ignore', detached: true }) },
  { name: 'Python', file: 'docs/backends/python/shop.py', path: '/momo-checkout.js', start: (port: number, env: Record<string, string>) => spawn('python3', [join(root, 'docs/backends/python/shop.py')], { cwd: join(root, 'docs/backends/python'), env: { ...env, PORT: String(port), PYTHONDONTWRITEBYTECODE: '1' }, stdio: 'ignore', detached: true }) },
];

describe("the PHP and Python shops serve the package's element script themselves", () => {
  let dir: string;
  let elementFile: string;
  const element = `/* momo-checkout element ${Date.now()} */\n`;
  const children: ChildProcess[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'momo-element-script-'));
    elementFile = join(dir, 'momo-checkout-test.js');
    await writeFile(elementFile, element);
  });
  after(async () => {
    for (const child of children) if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await rm(dir, { recursive: true, force: true });
  });

  for (const shop of shops) {
    it(`${shop.name}: the page's default script address is the shop's own, and it answers the package's file`, async () => {
      const source = await readFile(join(root, shop.file), 'utf8');
      assert.doesNotMatch(source, /unpkg|jsdelivr|https:\/\//, 'no CDN address');
      assert.ok(source.includes(`'${shop.path.slice(1)}'`) || source.includes(`"${shop.path}"`), `the page's default script is ${shop.path}`);
      const port = await freePort();
      const child = shop.start(port, { PATH: process.env.PATH ?? '', MOMO_ELEMENT_FILE: elementFile, MOMO_SERVER_URL: 'http://127.0.0.1:1/momo/server', MOMO_SERVER_SECRET: 'x', MOMO_MERCHANT_WEBHOOK_SECRET: 'whsec_x', MOMO_EVENTS_FILE: join(dir, 'events'), MOMO_ENDPOINT: '/momo', SHOP_URL: `http://127.0.0.1:${port}` });
      children.push(child);
      let answer: Response | undefined;
      for (let tries = 0; tries < 100 && !answer; tries++) {
        answer = await fetch(`http://127.0.0.1:${port}${shop.path}`).catch(() => undefined);
        if (!answer) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(answer, `${shop.name} shop answered`);
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/javascript/);
      assert.equal(await answer.text(), element);
    });
  }
});
