// The parts of a US-style street address the reports group jobs by (ZIP and city) and lead routing
// matches territories by. Read from the text as written: no geocoder is called.

/** The address's ZIP: its last five-digit group (a ZIP+4 counts by its first five). */
export function zipOf(address: string | null): string | null {
  if (!address) return null;
  const all = [...address.matchAll(/(?<!\d)(\d{5})(?:-\d{4})?(?!\d)/g)];
  return all.length > 0 ? all[all.length - 1]![1]! : null;
}

const STATE_ZIP = /^(?:[a-z]{2}\.?)?\s*(?:\d{5}(?:-\d{4})?)?$/i;
const COUNTRY = /^(?:us|usa|u\.s\.a?\.?|united states(?: of america)?)$/i;

/**
 * The city of a US-style address: the comma part before the state and ZIP ("12 Elm St, Columbus,
 * OH 43215" and "12 Elm St, Columbus OH 43215" both give Columbus). Null when the address has no
 * part that reads as a city (one part only, or nothing left once state and ZIP are taken off).
 */
export function cityOf(address: string | null): string | null {
  if (!address) return null;
  const parts = address
    .split(',')
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .filter((p) => p !== '');
  if (parts.length > 1 && COUNTRY.test(parts[parts.length - 1]!)) parts.pop();
  if (parts.length < 2) return null;
  const last = parts[parts.length - 1]!;
  // "OH 43215", "43215" or "OH": the city is the part before.
  if (STATE_ZIP.test(last)) return parts.length >= 3 ? tidy(parts[parts.length - 2]!) : null;
  // "Columbus OH 43215": the city is what is left once state and ZIP are taken off.
  const city = last.replace(/\s*\d{5}(?:-\d{4})?$/, '').replace(/\s+[a-z]{2}\.?$/i, '');
  return tidy(city);
}

const tidy = (city: string): string | null => {
  const t = city.trim();
  return t === '' || /\d/.test(t) ? null : t;
};

/** The report columns an address write sets with it. */
export function addressParts(address: string | null): { address_zip: string | null; address_city: string | null } {
  return { address_zip: zipOf(address), address_city: cityOf(address) };
}
