/**
 * How the demo store serves its files to payers on slow networks (issue 10): compressed (brotli
 * or gzip, as the browser asks), and cached for good once versioned.
 *
 * - Static files are compressed once at start (gzip -9, brotli at its best quality), never per
 *   request: the script-tag bundle goes from 87 KB to about 25 KB gzip.
 * - `/assets/<name>?v=<hash>` (what the page links) is `immutable` for a year: a return visit
 *   loads nothing but the page. Without the right `?v=` a file is `no-cache` with an ETag, so an
 *   old page still works and revalidates.
 * - Pages (HTML) are compressed per response; the companion's answers are left as they are (small
 *   JSON, and a status stream that must not be buffered by a compressor).
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface StaticAsset {
  body: Buffer;
  contentType: string;
  /** First 12 hex digits of the body's sha256: the `?v=` of its versioned URL. */
  version?: string;
  gzip?: Buffer;
  br?: Buffer;
}

/** A static file, hashed and compressed once. */
export function staticAsset(body: Buffer, contentType: string): StaticAsset {
  return {
    body,
    contentType,
    version: createHash('sha256').update(body).digest('hex').slice(0, 12),
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  };
}

/** `/assets/<name>?v=<hash>`, or the bare path when the file has no version. */
export function assetUrl(assets: ReadonlyMap<string, StaticAsset>, name: string): string {
  const version = assets.get(name)?.version;
  return version ? `/assets/${name}?v=${version}` : `/assets/${name}`;
}

/** The encoding to send for an Accept-Encoding header: brotli first, then gzip, else none. */
export function pickEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

const immutable = 'public, max-age=31536000, immutable';

export function serveAsset(asset: StaticAsset, request: Request): Response {
  const url = new URL(request.url);
  const etag = asset.version ? `"${asset.version}"` : undefined;
  const headers: Record<string, string> = {
    'content-type': asset.contentType,
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
    'cache-control': asset.version && url.searchParams.get('v') === asset.version ? immutable : 'no-cache',
    ...(etag ? { etag } : {}),
  };
  if (etag && request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  const encoding = pickEncoding(request.headers.get('accept-encoding'));
  const body = (encoding && asset[encoding]) || asset.body;
  if (body !== asset.body && encoding) headers['content-encoding'] = encoding;
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { headers });
}

/**
 * Wraps a handler so that its HTML pages go out compressed when the browser accepts it. Everything
 * else passes untouched (assets come compressed already; the companion's JSON and stream too).
 */
export function compressPages(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return async function compressedPages(request: Request): Promise<Response> {
    const response = await handler(request);
    const type = response.headers.get('content-type') ?? '';
    const encoding = pickEncoding(request.headers.get('accept-encoding'));
    if (!encoding || !type.startsWith('text/html') || !response.body || response.headers.has('content-encoding')) return response;
    const raw = Buffer.from(await response.arrayBuffer());
    const body = encoding === 'br' ? brotliCompressSync(raw) : gzipSync(raw);
    const headers = new Headers(response.headers);
    headers.set('content-encoding', encoding);
    headers.append('vary', 'accept-encoding');
    headers.delete('content-length');
    return new Response(new Uint8Array(body), { status: response.status, statusText: response.statusText, headers });
  };
}
