// What a file is, told from its first bytes (never from its name or the client's Content-Type):
// the images and phone videos photos take, and the documents files tell apart (field/files/kinds.ts).
/** How many leading bytes sniffing needs. */
export const SNIFF_BYTES = 32;
export interface Sniffed {
  contentType: string;
  kind: 'image' | 'heic' | 'video';
}

const ascii = (b: Buffer, from: number, to: number) => b.subarray(from, to).toString('latin1');

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const VIDEO_BRANDS: Record<string, string> = { 'qt  ': 'video/quicktime' };

/** The file's type from its leading bytes; null when it is none we take. */
export function sniff(head: Buffer): Sniffed | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return { contentType: 'image/jpeg', kind: 'image' };
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { contentType: 'image/png', kind: 'image' };
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a'))
    return { contentType: 'image/gif', kind: 'image' };
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP')
    return { contentType: 'image/webp', kind: 'image' };
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (HEIC_BRANDS.has(brand)) return { contentType: 'image/heic', kind: 'heic' };
    if (brand === 'avif' || brand === 'avis') return { contentType: 'image/avif', kind: 'image' };
    if (VIDEO_BRANDS[brand]) return { contentType: VIDEO_BRANDS[brand], kind: 'video' };
    if (/^(isom|iso[2-9]|mp4[12]|avc1|M4V |3gp[0-9]|3g2[a-z])$/.test(brand))
      return { contentType: 'video/mp4', kind: 'video' };
  }
  return null;
}
