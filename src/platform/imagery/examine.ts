// What the image library makes of an image (photos today; condition ratings and takeoffs will read
// their images here too): the upright copy when EXIF says the phone was turned, a 400 px JPEG
// thumbnail, and the EXIF capture time and GPS position. Pure of storage and the database: bytes in,
// facts out.
import exifr from 'exifr';
import sharp, { type FormatEnum, type Metadata } from 'sharp';
import type { Sniffed } from './sniff.ts';

export const THUMBNAIL_PX = 400;

export interface ImageFacts {
  width: number | null;
  height: number | null;
  /** Set when the image was re-encoded upright: store this instead of the upload. */
  upright: { data: Buffer; contentType: string } | null;
  /** Null when the image library cannot decode the format (HEIC on this build of libvips). */
  thumbnail: Buffer | null;
  takenAt: Date | null;
  gps: { latitude: number; longitude: number } | null;
}

export class InvalidImage extends Error {}

const FORMAT_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/**
 * EXIF's "YYYY:MM:DD HH:MM:SS" with its OffsetTime when the camera wrote one; without an offset
 * the clock reading is taken as UTC (EXIF has no zone), so the same file always reads the same.
 */
export function exifInstant(value: unknown, offset: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return null;
  const zone = typeof offset === 'string' && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : 'Z';
  const at = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${zone}`);
  return Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1900 ? null : at;
}

/** Reads EXIF time and GPS; a file with none (or unreadable EXIF) has neither, never an error. */
async function readExif(data: Buffer): Promise<Pick<ImageFacts, 'takenAt' | 'gps'>> {
  try {
    const tags = (await exifr.parse(data, {
      tiff: true,
      exif: true,
      gps: true,
      xmp: false,
      icc: false,
      iptc: false,
      jfif: false,
      ihdr: false,
      reviveValues: false,
    })) as Record<string, unknown> | undefined;
    if (!tags) return { takenAt: null, gps: null };
    const takenAt =
      exifInstant(tags.DateTimeOriginal, tags.OffsetTimeOriginal) ??
      exifInstant(tags.CreateDate, tags.OffsetTimeDigitized);
    const gps = await exifr.gps(data).catch(() => undefined);
    const { latitude, longitude } = (gps ?? {}) as { latitude?: unknown; longitude?: unknown };
    const place =
      typeof latitude === 'number' &&
      typeof longitude === 'number' &&
      Number.isFinite(latitude) &&
      Number.isFinite(longitude) &&
      Math.abs(latitude) <= 90 &&
      Math.abs(longitude) <= 180 &&
      !(latitude === 0 && longitude === 0)
        ? { latitude, longitude }
        : null;
    return { takenAt, gps: place };
  } catch {
    return { takenAt: null, gps: null };
  }
}

/**
 * Decodes an image (the caller bounds its size: it is held whole): InvalidImage when it does not
 * decode. HEIC that this libvips cannot decode is kept as uploaded with no thumbnail.
 */
export async function examineImage(data: Buffer, sniffed: Sniffed): Promise<ImageFacts> {
  const exif = await readExif(data);
  let meta: Metadata;
  try {
    meta = await sharp(data).metadata();
  } catch (err) {
    if (sniffed.kind === 'heic') return { width: null, height: null, upright: null, thumbnail: null, ...exif };
    throw new InvalidImage(String(err));
  }
  try {
    const thumbnail = await sharp(data)
      .rotate()
      .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
    const turned = meta.orientation !== undefined && meta.orientation > 1;
    let upright: ImageFacts['upright'] = null;
    if (turned || sniffed.kind === 'heic') {
      // Re-encoded upright in its own format (HEIC and AVIF as JPEG, which every browser shows).
      const format: keyof FormatEnum = FORMAT_TYPES[meta.format ?? ''] ? (meta.format as keyof FormatEnum) : 'jpeg';
      const out = sharp(data, { animated: format === 'gif' || format === 'webp' }).rotate();
      const encoded = await out.toFormat(format).toBuffer({ resolveWithObject: true });
      upright = { data: encoded.data, contentType: FORMAT_TYPES[format]! };
    }
    const swap = turned && meta.orientation! >= 5;
    const width = meta.width ?? null;
    const height = meta.height ?? null;
    return { width: swap ? height : width, height: swap ? width : height, upright, thumbnail, ...exif };
  } catch (err) {
    if (sniffed.kind === 'heic') return { width: null, height: null, upright: null, thumbnail: null, ...exif };
    throw new InvalidImage(String(err));
  }
}
