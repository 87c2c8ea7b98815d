/**
 * Issue 5: the built script-tag files in a real Chromium (Debian's; CHROME_PATH overrides it).
 * Two copies on one page, or a page that already registered the element, must not throw
 * (`customElements.define` throws on a second definition; define.ts checks first), and the
 * `integrity` value from manifest.json is the one the browser accepts.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import type { BrowserBuild } from '../../scripts/build-browser.js';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { builtOnce, removeBuild } from './built.js';

/** Serves the built files, and each page's HTML from `pages` (path → html). */
function serve(dir: string, pages: Map<string, string>, headers: Map<string, Record<string, string>>): Promise<Server> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const page = pages.get(path);
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers.get(path) }).end(page);
      return;
    }
    const name = path.slice(1);
    if (!/^momo-checkout-[\w.-]+\.m?js$/.test(name)) {
      response.writeHead(404).end();
      return;
    }
    readFile(join(dir, name)).then(
      (bytes) => response.writeHead(200, { 'content-type': 'text/javascript' }).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface PageOutcome {
  errors: string[];
  defined: boolean;
  upgraded: boolean;
  globalIsElement: boolean;
}

describe('script-tag files in Chromium', { timeout: 60_000 }, () => {
  let build: BrowserBuild;
  let browser: Browser;
  let server: Server;
  const pages = new Map<string, string>();
  const headers = new Map<string, Record<string, string>>();

  before(async () => {
    build = await builtOnce();
    server = await serve(build.outDir, pages, headers);
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await removeBuild();
  });

  const file = (format: 'iife' | 'es') => build.files.find((f) => f.format === format)!;

  async function open(path: string, html: string): Promise<PageOutcome> {
    pages.set(path, `<!doctype html><html lang="en"><body><momo-checkout endpoint="/momo" token="ck_test"></momo-checkout>${html}</body></html>`);
    const page = await browser.newPage();
    const errors: string[] = [];
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('Failed to load resource')) errors.push(message.text());
    });
    // The element fetches its checkout from /momo: answer nothing, this test is about loading.
    await page.route('**/momo/**', (route) => route.abort());
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}${path}`, { waitUntil: 'load', timeout: 10_000 });
    const outcome = await page.evaluate(async () => {
      // Bounded: a script that failed to run must fail the test, not hang it.
      await Promise.race([customElements.whenDefined('momo-checkout'), new Promise((resolve) => setTimeout(resolve, 3000))]);
      const el = document.querySelector('momo-checkout')!;
      return {
        defined: customElements.get('momo-checkout') !== undefined,
        upgraded: el.shadowRoot !== null,
        globalIsElement: typeof (window as unknown as { MomoCheckout?: unknown }).MomoCheckout !== 'undefined',
      };
    });
    await page.close();
    return { errors, ...outcome };
  }

  it('two <script> tags of the IIFE: the element is defined once and nothing throws', async () => {
    const src = `/${file('iife').file}`;
    const outcome = await open('/twice.html', `<script src="${src}"></script><script src="${src}?again"></script>`);
    assert.deepEqual(outcome.errors, []);
    assert.equal(outcome.defined, true);
    assert.equal(outcome.upgraded, true, 'the element did not render its shadow root');
  });

  it('the ES module after the IIFE (a page that already registered it): nothing throws', async () => {
    const outcome = await open(
      '/mixed.html',
      `<script src="/${file('iife').file}"></script><script type="module" src="/${file('es').file}"></script>`,
    );
    assert.deepEqual(outcome.errors, []);
    assert.equal(outcome.defined && outcome.upgraded, true);
  });

  it('loads with the manifest\'s integrity and crossorigin, and refuses a file whose hash differs', async () => {
    const iife = file('iife');
    const good = await open('/sri.html', `<script src="/${iife.file}" integrity="${iife.integrity}" crossorigin="anonymous"></script>`);
    assert.deepEqual(good.errors, []);
    assert.equal(good.upgraded && good.globalIsElement, true);

    const wrong = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;
    pages.set('/tampered.html', `<!doctype html><script src="/${iife.file}" integrity="${wrong}" crossorigin="anonymous"></script>`);
    const page = await browser.newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/tampered.html`, { waitUntil: 'load' });
    const defined = await page.evaluate(() => customElements.get('momo-checkout') !== undefined);
    await page.close();
    assert.equal(defined, false, 'Chromium ran a script whose integrity did not match');
    assert.ok(messages.some((m) => /integrity/i.test(m)), `no integrity error reported: ${messages.join(' | ')}`);
  });

  it('runs under the Content-Security-Policy docs/embedding.md gives merchants, Trusted Types included', async () => {
    // Keep in sync with docs/embedding.md, "Content-Security-Policy".
    const policy = [
      "default-src 'none'",
      "script-src 'self'",
      "connect-src 'self'",
      'img-src https:',
      "require-trusted-types-for 'script'",
      'trusted-types lit-html momo-checkout',
    ].join('; ');
    headers.set('/csp.html', { 'content-security-policy': policy });
    const iife = file('iife');
    const outcome = await open('/csp.html', `<script src="/${iife.file}" integrity="${iife.integrity}" crossorigin="anonymous"></script>`);
    assert.deepEqual(outcome.errors, [], 'the element needs more than the documented policy');
    assert.equal(outcome.upgraded, true);
  });
  // Issue 23: a payer downloads only their language, and the page's integrity hashes cover it.
  for (const order of ['after', 'before'] as const) {
    it(`a language file with its own integrity, included ${order} the script-tag file, turns the element Arabic and right-to-left`, async () => {
      const iife = file('iife');
      const arabic = build.languages.find((f) => f.language === 'ar')!;
      const main = `<script src="/${iife.file}" integrity="${iife.integrity}" crossorigin="anonymous" defer></script>`;
      const language = `<script src="/${arabic.file}" integrity="${arabic.integrity}" crossorigin="anonymous" defer></script>`;
      const path = `/arabic-${order}.html`;
      pages.set(path, `<!doctype html><html lang="en"><body><momo-checkout endpoint="/momo" token="ck_test" lang="ar"></momo-checkout>${order === 'after' ? main + language : language + main}</body></html>`);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.route('**/momo/**', (route) => route.abort());
      const { port } = server.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}${path}`, { waitUntil: 'load', timeout: 10_000 });
      const seen = await page.evaluate(async () => {
        await customElements.whenDefined('momo-checkout');
        const root = document.querySelector('momo-checkout')!.shadowRoot!;
        await new Promise((resolve) => setTimeout(resolve, 50));
        const base = root.querySelector('[part="base"]')!;
        return { dir: getComputedStyle(base).direction, label: base.getAttribute('aria-label') };
      });
      await page.close();
      assert.deepEqual(errors, []);
      assert.deepEqual(seen, { dir: 'rtl', label: 'الدفع عبر محفظة الهاتف المحمول' });
    });
  }
});
