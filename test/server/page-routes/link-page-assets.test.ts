/**
 * A payment link's page serves the element's files compressed (link-page-assets.ts): brotli when
 * the browser takes it, else gzip, else the bytes as built, each decoding to the built file, so a
 * payer on Slow 3G waits for about a third of the bytes before the number field takes typing. And
 * it names its own icon, so the browser does not ask the merchant's origin for a `/favicon.ico`
 * that may answer 404 (an error in the payer's console, and in Lighthouse's best practices).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../harness.js';

// Text that compresses as a script does: repeated words.
const script = `/* the element */\n${Array.from({ length: 400 }, (_, i) => `customElements.define("momo-part-${i % 7}", class extends HTMLElement {});`).join('\n')}\n`;
const elementDir = mkdtempSync(join(tmpdir(), 'momo-link-assets-'));
writeFileSync(join(elementDir, 'manifest.json'), JSON.stringify({ files: [{ file: 'momo-checkout-test.js', format: 'iife', integrity: 'sha384-test' }], languages: [] }));
writeFileSync(join(elementDir, 'momo-checkout-test.js'), script);

const secret = 'test-server-secret-link-assets-0123456789';
let h: Harness;
before(async () => {
  h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, elementAssetsDir: elementDir });
});
after(async () => {
  await h.close();
  rmSync(elementDir, { recursive: true, force: true });
});

/** The raw answer (not decoded, as fetch would) to a GET with this Accept-Encoding. */
function rawGet(path: string, acceptEncoding?: string): Promise<{ status: number; encoding: string | undefined; vary: string | undefined; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${h.base}${path}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'], vary: response.headers.vary, bytes: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe("a payment link's page: its files", () => {
  it('go out brotli when the browser takes it, gzip when it takes only that, and as built otherwise', async () => {
    const path = '/l/assets/momo-checkout-test.js';
    const browser = await rawGet(path, 'gzip, deflate, br, zstd');
    assert.equal(browser.status, 200);
    assert.equal(browser.encoding, 'br');
    assert.equal(browser.vary, 'accept-encoding');
    assert.equal(brotliDecompressSync(browser.bytes).toString('utf8'), script);
    assert.ok(browser.bytes.length * 3 < script.length, `compressed to ${browser.bytes.length} of ${script.length} bytes`);

    const gzipOnly = await rawGet(path, 'gzip, br;q=0');
    assert.equal(gzipOnly.encoding, 'gzip');
    assert.equal(gunzipSync(gzipOnly.bytes).toString('utf8'), script);

    const none = await rawGet(path);
    assert.equal(none.encoding, undefined);
    assert.equal(none.bytes.toString('utf8'), script);
    assert.equal((await rawGet(path, 'identity')).encoding, undefined);
  });

  it('names its icon, which it serves (the shop\'s logo instead, where configured)', async () => {
    const created = await fetch(`${h.base}/server/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ currencyCode: 'XOF', description: 'Pagne wax', amount: '5000' }),
    });
    const link = (await created.json()) as { url: string };
    const html = await (await fetch(link.url)).text();
    const icon = /<link rel="icon" href="([^"]+)">/.exec(html)?.[1];
    assert.equal(icon, `${new URL(h.base).pathname}/l/assets/icon.svg`);
    const answer = await fetch(new URL(icon!, h.base));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'image/svg+xml');
    assert.match(await answer.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

    const withLogo = await startHarness({ serverSecret: secret, setupChecksAtStart: false, elementAssetsDir: elementDir, shopLogoUrl: 'https://shop.example/logo.png' });
    try {
      const made = await fetch(`${withLogo.base}/server/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ currencyCode: 'XOF', description: 'Pagne wax', amount: '5000' }),
      });
      const page = await (await fetch(((await made.json()) as { url: string }).url)).text();
      assert.match(page, /<link rel="icon" href="https:\/\/shop\.example\/logo\.png">/);
    } finally {
      await withLogo.close();
    }
  });
});
