// Outbound HTTP to addresses users give us (webhook targets now; photo and plan URLs later).
// Private, loopback and other non-public addresses are refused unless the operator allows them
// (GROUNDWORK_ALLOW_PRIVATE_NETWORK=1), so a workspace cannot make the server probe its own
// network. Names are checked when they resolve, at connect time, so DNS cannot swap in a private
// address after a check.
import dns from 'node:dns';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  // NAT64 for local use (RFC 8215): an IPv4 address of the local network at one of several places.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local (deprecated, RFC 3879) is still routed inside some networks.
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** The 16 bytes of an IPv6 address in any of its text forms (a zone is dropped), or null. */
function ipv6Bytes(ip: string): Uint8Array | null {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  // A dotted IPv4 tail (::ffff:127.0.0.1) as its two hex groups.
  const quad = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(2).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${quad[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const bytes = new Uint8Array(16);
  for (const [i, group] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    const n = parseInt(group, 16);
    bytes[2 * i] = n >> 8;
    bytes[2 * i + 1] = n & 255;
  }
  return bytes;
}

/**
 * The IPv4 addresses an IPv6 address stands for: IPv4-compatible (::/96) and IPv4-mapped
 * (::ffff:0:0/96) addresses, IPv4-translated ones (::ffff:0:0:0/96, RFC 2765), the NAT64
 * well-known prefix (64:ff9b::/96, RFC 6052), 6to4 (2002::/16, RFC 3056) and Teredo
 * (2001::/32, RFC 4380: its server, and its client inverted). Each reaches that IPv4 host through
 * the network stack, a translator or a relay, so each is refused as that IPv4 address would be.
 */
function embeddedIpv4(b: Uint8Array): string[] {
  const v4 = (at: number, invert = 0) => [0, 1, 2, 3].map((i) => String((b[at + i] ?? 0) ^ invert)).join('.');
  const zero = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  if (zero(0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff))) return [v4(12)];
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return [v4(12)];
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return [v4(12)];
  if (b[0] === 0x20 && b[1] === 0x02) return [v4(2)];
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return [v4(4), v4(12, 0xff)];
  return [];
}

export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip.replace(/%.*$/, ''));
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const bytes = ipv6Bytes(ip);
    // An address we cannot read is not one we can vouch for.
    if (bytes === null) return true;
    if (blocked.check(ip.replace(/%.*$/, ''), 'ipv6')) return true;
    return embeddedIpv4(bytes).some((v4) => blocked.check(v4, 'ipv4'));
  }
  return false;
}

export class PrivateAddressRefused extends Error {
  constructor(host: string) {
    super(`${host} is a private or loopback address; set GROUNDWORK_ALLOW_PRIVATE_NETWORK=1 to allow it`);
  }
}

/** Refuses a URL whose host is itself a private address or a loopback name (checked before any lookup). */
export function assertPublicHost(url: URL, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const lower = host.toLowerCase();
  if (isPrivateAddress(host) || lower === 'localhost' || lower.endsWith('.localhost'))
    throw new PrivateAddressRefused(host);
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net/tls connections that fails when a name resolves to any private address. */
export function publicOnlyLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad)
      return callback(
        Object.assign(new PrivateAddressRefused(`${hostname} (${bad.address})`), { code: 'EPRIVATE' }),
        [],
      );
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
