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
 * ipaddr.js parses and matches addresses and ranges (IPv4-mapped IPv6 included).
 */
import ipaddr from 'ipaddr.js';

/** What an adapter knows about a request besides the `Request` itself. */
export interface RequestContext {
  /** The socket's remote address (node:http `req.socket.remoteAddress`). */
  clientAddress?: string | undefined;
}

/** How many proxies are in front, or their addresses and ranges (`MOMO_TRUST_PROXY`). */
export type TrustProxy = number | readonly string[];

export interface ClientAddressOptions {
  clientAddress?: ((request: Request) => string | undefined) | undefined;
  trustProxy?: TrustProxy | undefined;
}

export function resolveClientAddress(options: ClientAddressOptions, request: Request, context: RequestContext | undefined): string | undefined {
  if (options.clientAddress) return options.clientAddress(request) || undefined;
  const socket = context?.clientAddress || undefined;
  const trust = options.trustProxy ?? 0;
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
  if (count > 0 && socket !== undefined && !isPublic(socket)) {
    // [client, proxy1, ..., socket]: with n trusted proxies, the address the outermost one saw.
    const hops = chain();
    return validAddress(hops[Math.max(0, hops.length - 1 - count)]) ?? socket;
  }
  // Without trustProxy, a private or loopback socket is most likely the merchant's own proxy: every
  // client would share its address and one limit, so it is not limited per address.
  if (count === 0 && (socket === undefined || !isPublic(socket))) return undefined;
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

/** An address (`10.0.0.5`) or a range (`10.0.0.0/8`); throws a sentence for anything else. */
export function parseTrustedEntry(entry: string): Range {
  const text = entry.trim();
  try {
    if (text.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(text);
      return [normalised(address), address.kind() === 'ipv6' && normalised(address).kind() === 'ipv4' ? bits - 96 : bits];
    }
    const address = normalised(ipaddr.parse(text));
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new Error(`trustProxy: ${JSON.stringify(entry)} is neither an IP address nor a range such as 10.0.0.0/8`);
  }
}

function normalised(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

function isTrusted(entry: string, ranges: Range[]): boolean {
  if (!ipaddr.isValid(entry)) return false;
  const address = normalised(ipaddr.parse(entry));
  return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits));
}

function validAddress(entry: string | undefined): string | undefined {
  return entry && ipaddr.isValid(entry) ? normalised(ipaddr.parse(entry)).toString() : undefined;
}

function isPublic(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}
