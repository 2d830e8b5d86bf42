// The ZIP and city read from an address as written (src/platform/address-parts.ts), which the
// reports group jobs by.
import { describe, expect, it } from 'vitest';
import { cityOf, zipOf } from '#platform/address-parts.ts';

describe('address parts', () => {
  it.each([
    ['12 Elm St, Columbus, OH 43215', 'Columbus', '43215'],
    ['12 Elm St, Columbus OH 43215', 'Columbus', '43215'],
    ['12 Elm St, Suite 4, Upper Arlington, OH 43221-1234', 'Upper Arlington', '43221'],
    ['12 Elm St, Columbus, OH 43215, USA', 'Columbus', '43215'],
    ['12 Elm St, Columbus, OH', 'Columbus', null],
    ['12 Elm St, Columbus', 'Columbus', null],
    ['12 Elm St, 43215', null, '43215'],
    ['12 Elm St', null, null],
    ['12345 Long Rd, Dublin, OH 43017', 'Dublin', '43017'],
    ['', null, null],
  ])('%s: city %s, ZIP %s', (address, city, zip) => {
    expect(cityOf(address)).toBe(city);
    expect(zipOf(address)).toBe(zip);
  });
});
