// What a signature is over (proposals and change orders): the document the customer read, as JSON
// with every object's keys sorted, so the same document always gives the same text and the same
// SHA-256. The page sends the hash it rendered; the answer is refused when the document's hash has
// changed since, and the signed record keeps the canonical text and its hash.
import { createHash } from 'node:crypto';

/** JSON with every object's keys sorted: the same document always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The SHA-256 (hex) of a signed document's canonical JSON (proposals and change orders). */
export function documentHash(doc: unknown): string {
  return createHash('sha256').update(canonicalJson(doc)).digest('hex');
}
