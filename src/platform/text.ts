// Text normalisation shared by matching rules (names, addresses) and truncation of over-long input.

/** Case and spacing ignored: the key used to spot "the same name". */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Address matching ignores case, punctuation and spacing ("12 Main St." = "12 main st"). */
export function addressKey(address: string): string {
  return address
    .toLowerCase()
    .replace(/[.,#;]/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/** Cuts text to `max` characters (code points, so a surrogate pair is never split). */
export function truncate(text: string, max: number): string;
export function truncate(text: string | null | undefined, max: number): string | null | undefined;
export function truncate(text: string | null | undefined, max: number): string | null | undefined {
  if (typeof text !== 'string' || text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
}

/** User text with LIKE's wildcards and the escape character escaped (for ESCAPE '\'). */
export function escapeLike(q: string): string {
  return q.replace(/[\\%_]/g, (c) => '\\' + c);
}

/** A LIKE pattern matching `q` literally anywhere (used with ESCAPE '\'). */
export function likePattern(q: string): string {
  return '%' + escapeLike(q) + '%';
}
