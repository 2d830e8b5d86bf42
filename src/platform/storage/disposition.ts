// Content-Disposition for a link (RFC 6266): an ASCII `filename` every client understands and,
// when the name is not plain ASCII, `filename*` with the exact UTF-8 name (RFC 8187). Names come
// from users' uploads, so path separators, quotes and control characters are replaced, never
// trusted; both adapters send the same header.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among what this replaces.
const UNSAFE = /[\u0000-\u001f\u007f/\\]/g;
const MAX_NAME = 255;

/** The name as saved: no separators or control characters, at most 255 characters, never empty. */
export function safeFilename(name: string): string {
  const cleaned = name.replace(UNSAFE, '_').trim().slice(0, MAX_NAME);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/** RFC 8187 value characters: everything else is percent-encoded from UTF-8. */
const encodeExt = (s: string) =>
  encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function contentDisposition(disposition: 'inline' | 'attachment', filename?: string): string {
  if (filename === undefined) return disposition;
  const name = safeFilename(filename);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const header = `${disposition}; filename="${ascii}"`;
  return ascii === name ? header : `${header}; filename*=UTF-8''${encodeExt(name)}`;
}
