// The outbound address check (platform/outbound.ts) at connect time: the lookup undici connects
// through refuses a name that resolves to a private or loopback address, in every IPv6 form of an
// IPv4 one too. dns.lookup answers an address literal with itself, which stands here for a name
// whose AAAA record is that address (webhook and photo tests cover the checks before connecting).
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { isPrivateAddress, publicOnlyLookup } from '#platform/outbound.ts';

function lookup(host: string): Promise<{ err: NodeJS.ErrnoException | null; addresses: LookupAddress[] }> {
  return new Promise((resolve) =>
    publicOnlyLookup(host, { all: true }, (err, addresses) =>
      resolve({ err, addresses: addresses as LookupAddress[] }),
    ),
  );
}

const PRIVATE = [
  '127.0.0.1',
  '10.1.2.3',
  '::1',
  '::127.0.0.1',
  '::7f00:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:0:7f00:1',
  '::10.0.0.1',
  '64:ff9b::10.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::a00:1',
  '2002:7f00:1::1',
  '2002:a9fe:a9fe::',
  '2001:0:4136:e378:8000:63bf:80ff:fffe',
  'fe80::1%1',
  'fec0::1',
];
const PUBLIC = ['8.8.8.8', '2606:4700::1111', '64:ff9b::808:808', '2002:808:808::1', '::ffff:808:808'];

describe('at connect time', () => {
  it('refuses every private or loopback address, IPv6 forms of IPv4 ones included', async () => {
    for (const address of PRIVATE) {
      expect(isPrivateAddress(address), address).toBe(true);
      const { err } = await lookup(address);
      expect(err?.code, address).toBe('EPRIVATE');
      expect(err?.message, address).toMatch(/private or loopback/);
    }
  });

  it('lets public addresses through, in the same forms', async () => {
    for (const address of PUBLIC) {
      expect(isPrivateAddress(address), address).toBe(false);
      const { err, addresses } = await lookup(address);
      expect(err, address).toBeNull();
      expect(addresses.map((a) => a.address)).toEqual([address]);
    }
  });
});
