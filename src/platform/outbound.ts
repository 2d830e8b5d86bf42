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
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address, if it is one. */
function embeddedIpv4(ip: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    return v4 !== null ? blocked.check(v4, 'ipv4') : blocked.check(ip, 'ipv6');
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
