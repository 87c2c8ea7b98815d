/**
 * The payer's address for the per-address limits. `fetch(request)` alone does not carry it: the
 * adapters pass the socket's address beside the request (`companion.fetch(request, { clientAddress })`),
 * never in a header, so a payer cannot choose it. `X-Forwarded-For` is read only when the merchant
 * says how many proxies of theirs are in front (`trustProxy`), and then only the entry their own
 * last proxy wrote: entries further left were written by whoever sent the request.
 */
import ipaddr from 'ipaddr.js';

/** What an adapter knows about a request besides the `Request` itself. */
export interface RequestContext {
  /** The socket's remote address (node:http `req.socket.remoteAddress`). */
  clientAddress?: string | undefined;
}

export interface ClientAddressOptions {
  clientAddress?: ((request: Request) => string | undefined) | undefined;
  trustProxy?: number | undefined;
}

export function resolveClientAddress(options: ClientAddressOptions, request: Request, context: RequestContext | undefined): string | undefined {
  if (options.clientAddress) return options.clientAddress(request) || undefined;
  const socket = context?.clientAddress || undefined;
  const hops = options.trustProxy ?? 0;
  if (hops > 0) {
    const forwarded = (request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    // [client, proxy1, ..., socket]: with n trusted proxies, the address the outermost one saw.
    const chain = [...forwarded, socket ?? ''];
    return chain[Math.max(0, chain.length - 1 - hops)] || socket;
  }
  // Without trustProxy, a private or loopback socket is most likely the merchant's own proxy: every
  // payer would share its address and one limit, so it is not limited per address.
  if (socket === undefined || !isPublic(socket)) return undefined;
  return socket;
}

function isPublic(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}
