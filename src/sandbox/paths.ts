/**
 * The path prefixes the sandbox answers. A merchant app mounts the sandbox on its own origin by
 * sending these to `sandbox.fetch` (docs/sandbox.md): then its logos and its wallet approval page
 * are on the companion's origin, which the element accepts over http on this machine.
 */
export const sandboxPathPrefixes = ['/v1/', '/_sandbox/', '/authorize/', '/logos/'] as const;

/**
 * The base of a payer-facing link (a logo, the approval page) for a request: the configured
 * `payerUrl` (the companion's public URL behind a proxy), or the request's origin.
 */
export type PayerBase = (requestUrl: string) => string;

/** True for a path the sandbox serves (the service's API, its control surface, approval page, logos). */
export function isSandboxPath(path: string): boolean {
  return sandboxPathPrefixes.some((prefix) => path.startsWith(prefix));
}
