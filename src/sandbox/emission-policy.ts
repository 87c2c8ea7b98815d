/**
 * §6.4: the real service sends only to https URLs whose host is a public unicast address. The
 * sandbox is local, so it delivers to http://127.0.0.1 anyway, but says (once per URL) that the
 * real service would drop the notification. Host names are not resolved (no DNS here): only
 * `localhost` and IP literals are judged.
 */
import ipaddr from 'ipaddr.js';

export function whyTheServiceWouldDrop(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a valid URL';
  }
  if (parsed.protocol !== 'https:') return `its scheme is ${parsed.protocol.slice(0, -1)}, not https`;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'its host is localhost, not a public address';
  if (ipaddr.isValid(host)) {
    let address = ipaddr.parse(host);
    // §6.4: "including those disguised as IPv6" (::ffff:127.0.0.1).
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      address = (address as ipaddr.IPv6).toIPv4Address();
    }
    const range = address.range();
    if (range !== 'unicast') return `its address is ${range}, not public unicast`;
  }
  return undefined;
}
