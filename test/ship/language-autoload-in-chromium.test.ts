/**
 * Issue 32, "Done when": `lang="pt"`, `sw`, `ar` (or the page's `lang`) on a page that includes only
 * the script-tag file show their language in Chromium, the element fetching that language's file
 * once, from beside the script-tag file, under the integrity hash the build wrote into it; a
 * tampered language file is refused and English is shown, with one console warning. The page's CSP
 * allows nothing but its own origin for scripts.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import type { BrowserBuild } from '../../scripts/build-browser.js';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { builtOnce, removeBuild } from './built.js';

const checkoutView = {
  orderId: 'order-42', amount: '5000', currencyCode: 'XOF', decimalPlaces: 0, expiresAt: '2030-01-01T00:00:00Z',
  countries: [{ code: 'BJ', name: 'Benin', dialCode: '+229' }], payment: null,
};

const phoneLabels = { en: 'Mobile money number', pt: 'Número de dinheiro móvel', sw: 'Namba ya pesa ya simu', ar: 'رقم المحفظة على الهاتف المحمول' } as const;

/** The site's own policy: scripts from its origin only, nothing else added for the languages. */
const policy = "default-src 'none'; script-src 'self'; connect-src 'self'; img-src https:";

interface Served {
  server: Server;
  /** Every language file request, by file name. */
  requests: string[];
  /** File name → bytes to serve instead of the built ones (a tampered copy). */
  replaced: Map<string, Buffer>;
  pages: Map<string, string>;
  /** Page path → its own Content-Security-Policy instead of `policy`. */
  policies: Map<string, string>;
}

function serve(build: BrowserBuild): Promise<Served> {
  const served: Served = { server: undefined as unknown as Server, requests: [], replaced: new Map(), pages: new Map(), policies: new Map() };
  served.server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const page = served.pages.get(path);
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': served.policies.get(path) ?? policy }).end(page);
      return;
    }
    if (path === '/momo/checkout') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(checkoutView));
      return;
    }
    const name = path.replace(/^\/assets\//, '');
    if (!path.startsWith('/assets/') || !/^momo-checkout-[\w.-]+\.m?js$/.test(name)) {
      response.writeHead(404).end();
      return;
    }
    if (build.languages.some((file) => file.file === name)) served.requests.push(name);
    const replaced = served.replaced.get(name);
    (replaced ? Promise.resolve(replaced) : readFile(join(build.outDir, name))).then(
      (bytes) => response.writeHead(200, { 'content-type': 'text/javascript' }).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => served.server.listen(0, '127.0.0.1', () => resolve(served)));
}

describe('a language loads by itself from the script-tag file', { timeout: 90_000 }, () => {
  let build: BrowserBuild;
  let browser: Browser;
  let served: Served;

  before(async () => {
    build = await builtOnce();
    served = await serve(build);
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => served?.server.close(resolve));
    await removeBuild();
  });

  /** Opens a page with only the script-tag file (under its own hash) and reads what the payer sees. */
  async function open(path: string, body: string, htmlLang = 'en', afterLoad?: (page: Page) => Promise<void>) {
    const iife = build.files.find((file) => file.format === 'iife')!;
    served.pages.set(
      path,
      `<!doctype html><html lang="${htmlLang}"><head><script src="/assets/${iife.file}" integrity="${iife.integrity}" crossorigin="anonymous" defer></script></head><body>${body}</body></html>`,
    );
    served.requests.length = 0;
    const page = await browser.newPage();
    const warnings: string[] = [];
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
      // The favicon's 404 aside; the language file's own requests are counted by the server.
      if (message.type() === 'error' && !/integrity|Failed to load resource/i.test(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const { port } = served.server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}${path}`, { waitUntil: 'load', timeout: 10_000 });
    await afterLoad?.(page);
    const seen = await page.evaluate(async () => {
      await customElements.whenDefined('momo-checkout');
      const elements = [...document.querySelectorAll('momo-checkout')];
      // Until each element shows its phone field, visible (not waiting for its language any more).
      const deadline = Date.now() + 8000;
      // (No named function in here: tsx would wrap it in a helper the page does not have.)
      while (
        !elements.every((el) => {
          const base = el.shadowRoot?.querySelector('[part="base"]');
          return base && el.shadowRoot!.querySelector('label[for="phone"]') && getComputedStyle(base).visibility === 'visible' && (el as unknown as { status: string }).status === 'entering';
        }) &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return elements.map((el) => {
        const base = el.shadowRoot!.querySelector('[part="base"]')!;
        return { label: el.shadowRoot!.querySelector('label[for="phone"]')?.textContent, dir: getComputedStyle(base).direction, visible: getComputedStyle(base).visibility };
      });
    });
    const scripts = await page.evaluate(() => [...document.querySelectorAll('script[src*="momo-checkout-"]')].map((s) => ({ src: (s as HTMLScriptElement).src, integrity: (s as HTMLScriptElement).integrity })));
    await page.close();
    return { seen, warnings, errors, scripts };
  }

  for (const lang of ['pt', 'sw', 'ar'] as const) {
    it(`lang="${lang}": its language, its file fetched once under the hash the build wrote`, async () => {
      const file = build.languages.find((entry) => entry.language === lang)!;
      const outcome = await open(`/${lang}.html`, `<momo-checkout endpoint="/momo" token="t" lang="${lang}"></momo-checkout><momo-checkout endpoint="/momo" token="t" lang="${lang}"></momo-checkout>`);
      assert.deepEqual(outcome.errors, []);
      assert.deepEqual(outcome.warnings, []);
      for (const element of outcome.seen) {
        assert.equal(element.label, phoneLabels[lang]);
        assert.equal(element.visible, 'visible');
        assert.equal(element.dir, lang === 'ar' ? 'rtl' : 'ltr');
      }
      assert.deepEqual(served.requests, [file.file], 'two elements, one request for the language file');
      const added = outcome.scripts.find((script) => script.src.endsWith(`/assets/${file.file}`));
      assert.equal(added?.integrity, file.integrity, 'the language file was not loaded under its hash from beside the script-tag file');
    });
  }

  it('the page\'s lang (html lang="sw-KE") is enough', async () => {
    const outcome = await open('/page-lang.html', '<momo-checkout endpoint="/momo" token="t"></momo-checkout>', 'sw-KE');
    assert.deepEqual(outcome.seen.map((element) => element.label), [phoneLabels.sw]);
    assert.equal(served.requests.length, 1);
  });

  it('a tampered language file is refused: English, and one warning that says which file and what to do', async () => {
    const file = build.languages.find((entry) => entry.language === 'pt')!;
    const tampered = Buffer.from((await readFile(join(build.outDir, file.file), 'utf8')).replace('Pagar', 'Pagar já'));
    served.replaced.set(file.file, tampered);
    try {
      const outcome = await open('/tampered.html', '<momo-checkout endpoint="/momo" token="t" lang="pt"></momo-checkout><momo-checkout endpoint="/momo" token="t" lang="pt-MZ"></momo-checkout>');
      assert.deepEqual(outcome.seen.map((element) => [element.label, element.visible]), [[phoneLabels.en, 'visible'], [phoneLabels.en, 'visible']]);
      assert.equal(outcome.warnings.length, 1, `warnings: ${outcome.warnings.join(' | ')}`);
      assert.match(outcome.warnings[0]!, new RegExp(`${file.file.replace(/\./g, '\\.')}.*refused by its integrity hash.*showing English`));
      assert.deepEqual(served.requests, [file.file]);
    } finally {
      served.replaced.delete(file.file);
    }
  });

  // Issue 41: the element's own Trusted Types policy (`momo-checkout`, as Lit's `lit-html`) makes its
  // language files' URLs, and nothing else; a page allows it with one word.
  const trustedTypes = (allowed: string) => `${policy}; require-trusted-types-for 'script'; trusted-types ${allowed}`;
  async function switchToPortugueseAfterLoad(page: Page): Promise<void> {
    await page.waitForFunction(() => (document.querySelector('momo-checkout') as unknown as { status?: string } | null)?.status === 'entering', undefined, { timeout: 8000 });
    await page.evaluate(() => document.querySelector('momo-checkout')!.setAttribute('lang', 'pt'));
    // Until the file has come (Portuguese) or been given up (English, with its warning).
    await page.waitForFunction(
      () => {
        const el = document.querySelector('momo-checkout')!;
        const base = el.shadowRoot?.querySelector('[part="base"]');
        return base !== null && base !== undefined && getComputedStyle(base).visibility === 'visible' && el.shadowRoot!.querySelector('label[for="phone"]') !== null;
      },
      undefined,
      { timeout: 8000 },
    );
  }

  it("lang switched after load on a page that enforces Trusted Types and allows momo-checkout: the file is loaded through the element's policy", async () => {
    const file = build.languages.find((entry) => entry.language === 'pt')!;
    served.policies.set('/trusted-types.html', trustedTypes('lit-html momo-checkout'));
    const outcome = await open('/trusted-types.html', '<momo-checkout endpoint="/momo" token="t"></momo-checkout>', 'en', switchToPortugueseAfterLoad);
    assert.deepEqual(outcome.errors, []);
    assert.deepEqual(outcome.warnings, []);
    assert.deepEqual(outcome.seen.map((element) => [element.label, element.visible]), [[phoneLabels.pt, 'visible']]);
    assert.deepEqual(served.requests, [file.file]);
    assert.equal(outcome.scripts.find((script) => script.src.endsWith(`/assets/${file.file}`))?.integrity, file.integrity);
  });

  it('a Trusted Types page that does not allow momo-checkout: English, and the warning names the word to add', async () => {
    served.policies.set('/trusted-types-without.html', trustedTypes('lit-html'));
    const outcome = await open('/trusted-types-without.html', '<momo-checkout endpoint="/momo" token="t"></momo-checkout>', 'en', switchToPortugueseAfterLoad);
    assert.deepEqual(outcome.seen.map((element) => element.label), [phoneLabels.en]);
    assert.equal(outcome.warnings.length, 1, `warnings: ${outcome.warnings.join(' | ')}`);
    assert.match(outcome.warnings[0]!, /lang="pt".*allow trusted-types momo-checkout.*showing English/);
    assert.deepEqual(served.requests, []);
  });
});
