/**
 * The client's address for the per-address limits (the payer's routes, the console's sign-in).
 * `fetch(request)` alone does not carry it: the adapters pass the socket's address beside the
 * request (`companion.fetch(request, { clientAddress })`), never in a header, so a client cannot
 * choose it. `X-Forwarded-For` is read only from a hop the merchant trusts (`trustProxy`):
 *
 * - a list of their proxies' addresses or ranges (`['127.0.0.1', '10.0.0.0/8']`): the chain is
 *   walked from its right end past every trusted address; the first one that is not trusted is the
 *   client. A request straight from an untrusted socket keeps the socket's address, whatever it wrote;
 * - a number of proxies: read only when the socket itself is loopback or private (what a proxy of
 *   theirs looks like); a public socket reached the companion directly, so its own address is
 *   used and its `X-Forwarded-For` (anything it chose) is not.
 *
 * The address found is returned as the key the limits count it under (address-key.ts): an IPv6
 * client's /64, the IPv4 a 6to4 or Teredo address carries.
 *
 * ipaddr.js parses and matches addresses and ranges (IPv4-mapped IPv6 included).
 */
import ipaddr from 'ipaddr.js';
import { isPublicAddress, limitKey, strictAddress } from './address-key.js';

/** What an adapter knows about a request besides the `Request` itself. */
export interface RequestContext {
  /** The socket's remote address (node:http `req.socket.remoteAddress`). */
  clientAddress?: string | undefined;
}

/** How many proxies are in front, or their addresses and ranges (`MOMO_TRUST_PROXY`). */
export type TrustProxy = number | readonly string[];

/**
 * The most proxies a count may name. Real chains are short: a CDN's edge and shield, a cloud load
 * balancer, an ingress, a sidecar make five. A larger count is a slip (an address or a port typed
 * where the count goes: `999`), and it would read the leftmost `X-Forwarded-For` entry, the one a
 * client writes itself; it is refused at start instead (issue 40, finding 9).
 */
export const maxTrustedProxies = 10;

export interface ClientAddressOptions {
  clientAddress?: ((request: Request) => string | undefined) | undefined;
  trustProxy?: TrustProxy | undefined;
}

/** The client's address as the per-address limits key it (address-key.ts), or undefined: not limited per address. */
export function resolveClientAddress(options: ClientAddressOptions, request: Request, context: RequestContext | undefined): string | undefined {
  if (options.clientAddress) {
    // The merchant's own function (a platform header): keyed the same way when it gives an IP address.
    const given = options.clientAddress(request) || undefined;
    return given === undefined ? undefined : (limitKey(given) ?? given);
  }
  const address = clientAddressOf(options.trustProxy ?? 0, request, context);
  return address === undefined ? undefined : (limitKey(address) ?? address);
}

function clientAddressOf(trust: TrustProxy, request: Request, context: RequestContext | undefined): string | undefined {
  const socket = context?.clientAddress || undefined;
  const chain = () => [
    ...(request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    socket ?? '',
  ];
  if (Array.isArray(trust) && trust.length > 0) {
    const trusted = trustedRanges(trust);
    const hops = chain();
    let index = hops.length - 1;
    while (index > 0 && isTrusted(hops[index]!, trusted)) index--;
    return validAddress(hops[index]) ?? socket;
  }
  const count = typeof trust === 'number' ? trust : 0;
  if (count > 0 && socket !== undefined && !isPublicAddress(socket)) {
    // [client, proxy1, ..., socket]: with n trusted proxies, the address the outermost one saw.
    const hops = chain();
    return validAddress(hops[Math.max(0, hops.length - 1 - count)]) ?? socket;
  }
  // Without trustProxy, a private or loopback socket is most likely the merchant's own proxy: every
  // client would share its address and one limit, so it is not limited per address.
  if (count === 0 && (socket === undefined || !isPublicAddress(socket))) return undefined;
  return socket;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

const rangesCache = new WeakMap<readonly string[], Range[]>();

function trustedRanges(entries: readonly string[]): Range[] {
  let ranges = rangesCache.get(entries);
  if (!ranges) {
    ranges = entries.map(parseTrustedEntry);
    rangesCache.set(entries, ranges);
  }
  return ranges;
}

/**
 * An address (`10.0.0.5`) or a range (`10.0.0.0/8`) in the usual forms (`strictAddress`); throws a
 * sentence for anything else, `1`, `1.2.3` or `10.1` included.
 */
export function parseTrustedEntry(entry: string): Range {
  const text = entry.trim();
  const [addressText = '', bitsText, ...rest] = text.split('/');
  const written = strictAddress(addressText);
  const maxBits = addressText.includes(':') ? 128 : 32;
  const bits = bitsText === undefined ? maxBits : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!written || rest.length > 0 || !(bits >= 0 && bits <= maxBits)) {
    throw new Error(`trustProxy: ${JSON.stringify(entry)} is neither an IP address nor a range such as 10.0.0.0/8`);
  }
  // An IPv4-mapped range (::ffff:10.0.0.0/104) matches as the IPv4 range it maps (10.0.0.0/8).
  return [written, written.kind() === 'ipv4' && addressText.includes(':') ? Math.max(0, bits - 96) : bits];
}

function isTrusted(entry: string, ranges: Range[]): boolean {
  const address = strictAddress(entry);
  return address !== undefined && ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits));
}

function validAddress(entry: string | undefined): string | undefined {
  return entry ? strictAddress(entry)?.toString() : undefined;
}
