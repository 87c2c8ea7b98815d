/**
 * Issue 10: the demo serves its files compressed and, once versioned, cached for good; its pages
 * compressed; the companion's answers (the status stream above all) untouched.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { assetUrl, compressPages, pickEncoding, serveAsset, staticAsset } from '../../demo/assets.js';

const code = Buffer.from('console.log("momo");\n'.repeat(400));
const asset = staticAsset(code, 'text/javascript; charset=utf-8');
const assets = new Map([['momo-checkout.js', asset]]);
const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://shop.test${path}`, { headers });

describe('demo static files', () => {
  it('links each file with its content hash', () => {
    assert.match(assetUrl(assets, 'momo-checkout.js'), /^\/assets\/momo-checkout\.js\?v=[0-9a-f]{12}$/);
    assert.equal(assetUrl(assets, 'other.css'), '/assets/other.css');
  });

  it('sends brotli or gzip as the browser asks, and the plain bytes otherwise', async () => {
    const br = serveAsset(asset, get('/assets/momo-checkout.js', { 'accept-encoding': 'gzip, deflate, br' }));
    assert.equal(br.headers.get('content-encoding'), 'br');
    assert.deepEqual(brotliDecompressSync(Buffer.from(await br.arrayBuffer())), code);
    const gz = serveAsset(asset, get('/assets/momo-checkout.js', { 'accept-encoding': 'gzip, deflate' }));
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
    assert.deepEqual(gunzipSync(Buffer.from(await gz.arrayBuffer())), code);
    const plain = serveAsset(asset, get('/assets/momo-checkout.js'));
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.deepEqual(Buffer.from(await plain.arrayBuffer()), code);
    assert.equal(pickEncoding('br;q=0, gzip'), 'gzip');
    assert.equal(pickEncoding('identity'), null);
  });

  it('is immutable at its versioned URL, and revalidated (ETag, 304) at any other', () => {
    const versioned = serveAsset(asset, get(assetUrl(assets, 'momo-checkout.js')));
    assert.equal(versioned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const stale = serveAsset(asset, get('/assets/momo-checkout.js?v=000000000000'));
    assert.equal(stale.headers.get('cache-control'), 'no-cache');
    const etag = stale.headers.get('etag')!;
    assert.equal(serveAsset(asset, get('/assets/momo-checkout.js', { 'if-none-match': etag })).status, 304);
  });
});

describe('demo pages', () => {
  it('compresses HTML, and leaves JSON and the status stream alone', async () => {
    const page = '<!doctype html><p>' + 'Maison Adjoa '.repeat(200);
    const app = compressPages(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/') return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      if (path === '/momo/checkout/events') return new Response('data: 1\n\n', { headers: { 'content-type': 'text/event-stream' } });
      return Response.json({ ok: true });
    });
    const html = await app(get('/', { 'accept-encoding': 'gzip' }));
    assert.equal(html.headers.get('content-encoding'), 'gzip');
    assert.equal(gunzipSync(Buffer.from(await html.arrayBuffer())).toString(), page);
    for (const path of ['/momo/checkout/events', '/momo/checkout']) {
      const other = await app(get(path, { 'accept-encoding': 'gzip, br' }));
      assert.equal(other.headers.get('content-encoding'), null, path);
    }
  });
});
