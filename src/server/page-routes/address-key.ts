/**
 * The key a client's address is limited under (issue 40, finding 7), and whether it can be a proxy
 * of the merchant's.
 *
 * - IPv4: the address itself.
 * - IPv6: its /64. One subscriber, one home or one phone gets a whole /64 (RFC 6177, RFC 7934:
 *   "a /64 per host" on mobile networks) and picks addresses in it freely (privacy addresses, RFC
 *   8981), so a per-/128 key would hand that one client 2^64 fresh buckets.
 * - Addresses that carry an IPv4 one: 6to4 (2002:AABB:CCDD::/48, RFC 3056), Teredo (2001:0::/32,
 *   the client's IPv4 stored inverted in the last 32 bits, RFC 4380 §4) and NAT64's well-known
 *   prefix (64:ff9b::/96, RFC 6052): the IPv4 they carry, so the host shares the key of its IPv4.
 *   IPv4-mapped ones (::ffff:a.b.c.d) are unwrapped by ipaddr.js itself (`process`).
 *
 * ipaddr.js knows these ranges (`range()`); only the unwrapping of the three above is written here,
 * as it offers it for IPv4-mapped addresses only.
 */
import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * `text` as an IP address in its usual form, IPv4-mapped IPv6 unwrapped; undefined for anything
 * else. ipaddr.js's `parse` also takes the old inet_aton shorthands (`1` is 0.0.0.1, `10.1` is
 * 10.0.0.1, `010.0.0.1` octal), which nobody writes meaning an address (issue 40, finding 9: `1,2`
 * in MOMO_TRUST_PROXY was read as two addresses): only four decimal parts are IPv4 here.
 */
export function strictAddress(text: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  return text.includes(':') && ipaddr.IPv6.isValid(text) ? ipaddr.process(text) : undefined;
}

/** `address` as the limits count it, or undefined when it is not an IP address. */
export function limitKey(address: string): string | undefined {
  const given = strictAddress(address);
  if (!given) return undefined;
  const parsed = carriedIPv4(given);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/**
 * True for an address on the public Internet, which a proxy of the merchant's never has: its
 * `X-Forwarded-For` (anything it chose) is not read with a count of proxies. 6to4, Teredo and NAT64
 * addresses reach the companion across the Internet: public, whatever the IPv4 inside them is.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = strictAddress(address);
  if (!parsed) return false;
  return parsed.range() === 'unicast' || carriedIPv4(parsed) !== parsed;
}

/** The IPv4 a 6to4, Teredo or NAT64 address carries; any other address unchanged. */
function carriedIPv4(address: Address): Address {
  if (address.kind() === 'ipv4') return address;
  const parts = (address as ipaddr.IPv6).parts as number[];
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case '6to4':
      return fromWords(parts[1]!, parts[2]!);
    case 'teredo':
      return fromWords(~parts[6]! & 0xffff, ~parts[7]! & 0xffff);
    case 'rfc6052':
      // The well-known /96 only: under RFC 8215's local-use /48 the IPv4's place is the operator's choice.
      return parts.slice(0, 6).join(':') === '100:65435:0:0:0:0' ? fromWords(parts[6]!, parts[7]!) : address;
    default:
      return address;
  }
}
