// The proposal's photos as the PDF embeds them (pdf.ts): each stored photo read from storage and
// re-encoded as a JPEG at most 1200 px on its long side. A phone photo is 3-12 MB; embedded as
// stored, ten of them would make a 50 MB PDF. 1200 px fills the page's width at about 170 dpi,
// sharper than print needs and a few hundred kilobytes each. The stored object is already upright
// (photos are turned by their EXIF orientation at upload), so no rotation here; re-encoding drops
// the EXIF block, GPS included, which the customer's copy does not need.
//
// A photo that cannot be read (object gone, store failing, not an image) is left out of the map,
// and the PDF shows it as unavailable: one bad photo never stops the proposal from printing.
import sharp from 'sharp';
import type { Storage } from '#platform/storage/storage.ts';
import type { PhotoFile } from './load.ts';

const LONG_SIDE = 1200;
const QUALITY = 82;
/**
 * Photos decoded at once. sharp runs each on libuv's thread pool; a decoded 12-megapixel photo
 * is ~36 MB, so a few at a time keeps memory bounded while the machine's cores stay busy.
 */
const CONCURRENCY = 3;

async function embeddable(storage: Storage, photo: PhotoFile): Promise<Buffer | null> {
  try {
    const stored = Buffer.concat(await (await storage.get(photo.storage_key)).toArray());
    return await sharp(stored)
      .resize({ width: LONG_SIDE, height: LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      // PNG and WebP may be transparent; JPEG has no alpha, so transparency becomes white paper.
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: QUALITY })
      .toBuffer();
  } catch {
    return null;
  }
}

/** The photos' bytes ready to embed, by photo id, in the order given; unreadable photos left out. */
export async function pdfPhotoBytes(storage: Storage, photos: Map<number, PhotoFile>): Promise<Map<number, Buffer>> {
  const queue = [...photos.values()];
  const done = new Map<number, Buffer>();
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const photo = queue[next++];
      const bytes = await embeddable(storage, photo);
      if (bytes !== null) done.set(photo.id, bytes);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  const out = new Map<number, Buffer>();
  for (const photo of queue) {
    const bytes = done.get(photo.id);
    if (bytes) out.set(photo.id, bytes);
  }
  return out;
}

/** The logo at most 600 px wide as a PNG (a logo keeps its transparency); null when it cannot be read. */
export async function pdfLogoBytes(storage: Storage, logo: { storage_key: string } | null): Promise<Buffer | null> {
  if (logo === null) return null;
  try {
    const stored = Buffer.concat(await (await storage.get(logo.storage_key)).toArray());
    return await sharp(stored)
      .resize({ width: 600, height: 300, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    return null;
  }
}
