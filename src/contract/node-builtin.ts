/**
 * A Node built-in module where the runtime has one (Node, Bun, Deno), found at run time through
 * `process.getBuiltinModule` and never imported, so that bundles for other runtimes (a browser, an
 * edge worker) stay clean and still load; undefined there. The one lookup behind the companion's
 * fast paths (node:crypto's HMAC and hashes) and its reads of the built files (node:fs, node:zlib).
 */
export function nodeBuiltin<T>(id: `node:${string}`): T | undefined {
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return nodeProcess?.getBuiltinModule?.(id) as T | undefined;
}
