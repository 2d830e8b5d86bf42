// An image sent to be rated (document 3: "JPEG, PNG, WebP; up to 15 MB and 60 megapixels, at least
// 64 px"), checked and decoded. Its type is told from its first bytes, never from a name or a
// Content-Type. Decoding is bounded by sharp's pixel limit, so a small file claiming a huge canvas
// is refused before it is inflated. Phone photos are turned upright by their EXIF orientation.
import sharp, { type Metadata } from 'sharp';
import { sniff } from '#platform/imagery/sniff.ts';
import { imageTooLarge, invalidImage } from './errors.ts';

export const IMAGE_MAX_BYTES = 15 * 1024 * 1024;
export const IMAGE_MAX_PIXELS = 60_000_000;
export const IMAGE_MIN_PX = 64;
/**
 * The longest side the detector looks at in a photo. A photo's scale is unknown, and the detector
 * takes it to span 3 m: at 512 px that is 5.9 mm a pixel, between the two scales its accuracy was
 * measured at (5 and 6.25 mm, docs/condition.md). Finer costs time for detail nothing measured: a
 * 2,048 px photo analysed at 1,024 px took 17 to 20 times its decode (bench/condition.ts).
 */
export const PHOTO_ANALYSIS_MAX_PX = 512;
/** The longest side of aerial imagery the detector looks at: framing keeps mosaics near 1,280 px. */
export const ANALYSIS_MAX_PX = 1_024;

const RATED_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

export interface Pixels {
  width: number;
  height: number;
  channels: 3;
  data: Uint8Array;
}

export interface DecodedImage {
  /** The image as rated (upright, at most PHOTO_ANALYSIS_MAX_PX on its longest side), raw RGB. */
  pixels: Pixels;
  /** The image's own size, before the analysis copy was made. */
  width: number;
  height: number;
  /** Analysis pixels per image pixel (1 when the image was small enough). */
  scale: number;
}

export function checkImageBytes(bytes: Buffer): void {
  if (bytes.length > IMAGE_MAX_BYTES)
    throw imageTooLarge(`The image is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; at most 15 MB is rated`);
  const kind = sniff(bytes.subarray(0, 32));
  if (!kind || !RATED_TYPES.has(kind.contentType)) throw invalidImage('The image must be a JPEG, PNG or WebP file');
}

/** Checks and decodes an uploaded or fetched image for the detector. */
export async function decodeImage(bytes: Buffer): Promise<DecodedImage> {
  checkImageBytes(bytes);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidImage('The image could not be read: it is damaged or not an image');
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > IMAGE_MAX_PIXELS)
    throw imageTooLarge(`The image is ${((width * height) / 1e6).toFixed(1)} megapixels; at most 60 are rated`);
  if (Math.min(width, height) < IMAGE_MIN_PX)
    throw invalidImage(`The image is ${width} × ${height} px; each side must be at least ${IMAGE_MIN_PX} px`);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
      .rotate()
      .resize({ width: PHOTO_ANALYSIS_MAX_PX, height: PHOTO_ANALYSIS_MAX_PX, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const upright = (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
    return {
      pixels: { width: info.width, height: info.height, channels: 3, data: new Uint8Array(data) },
      width: upright.width,
      height: upright.height,
      scale: info.width / upright.width,
    };
  } catch {
    throw invalidImage('The image could not be decoded: it is damaged or truncated');
  }
}
