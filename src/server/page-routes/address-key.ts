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
 * ipaddr.js parses and classifies addresses; the unwrapping of the three above is written here, as
 * it offers it for IPv4-mapped addresses only.
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
  // Shapes first: ipaddr.js's validity checks throw and catch inside on a string of the other
  // family, and an exception cost ten times the rest of a request's address handling here.
  if (text.includes(':')) return ipaddr.IPv6.isValid(text) ? ipaddr.process(text) : undefined;
  return fourDecimalParts.test(text) && ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : undefined;
}

const fourDecimalParts = /^\d{1,3}(?:\.\d{1,3}){3}$/;

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
  return carriedIPv4(parsed) !== parsed || parsed.range() === 'unicast';
}

/**
 * The IPv4 a 6to4, Teredo or NAT64 address carries; any other address unchanged. Read from the
 * prefixes themselves (those of ipaddr.js's `6to4`, `teredo` and `rfc6052` ranges): `range()` tries
 * every special range in turn and cost several times the rest of a request's address handling.
 */
function carriedIPv4(address: Address): Address {
  if (address.kind() === 'ipv4') return address;
  const parts = (address as ipaddr.IPv6).parts as number[];
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  // 6to4, 2002::/16: the IPv4 in the next 32 bits.
  if (parts[0] === 0x2002) return fromWords(parts[1]!, parts[2]!);
  // Teredo, 2001::/32: the client's IPv4 in the last 32 bits, inverted.
  if (parts[0] === 0x2001 && parts[1] === 0) return fromWords(~parts[6]! & 0xffff, ~parts[7]! & 0xffff);
  // NAT64's well-known 64:ff9b::/96 (under RFC 8215's local-use /48 the IPv4's place is the operator's choice).
  if (parts[0] === 0x64 && parts[1] === 0xff9b && parts[2] === 0 && parts[3] === 0 && parts[4] === 0 && parts[5] === 0) return fromWords(parts[6]!, parts[7]!);
  return address;
}
