// The image a rating looks at, from whichever source the request named (document 3: an image
// overrides location fields; otherwise the first of polygon, lat plus lng, address): the upload
// itself, the image at image_url (fetched under the outbound rules), or aerial imagery around the
// place (the geocoder first for an address). All of it runs before anything is written, outside
// any transaction (guide: outside calls never run while a lock is held).
import sharp from 'sharp';
import { cappedBytes } from '#platform/outside-answer.ts';
import type { ServiceContext } from '#platform/context.ts';
import type { ImageryPlace } from '#platform/imagery/imagery.ts';
import { FetchFailed, fetchPublic } from '#platform/outbound-fetch.ts';
import { imageRejected, imageTooLarge, invalidRequest } from './errors.ts';
import { geocodedPoint, mosaicOf } from '#platform/imagery/answers.ts';
import type { ImageFacts } from './compose.ts';
import { ANALYSIS_MAX_PX, decodeImage, IMAGE_MAX_BYTES, type Pixels } from './image.ts';
import type { RatingRequest } from './request.ts';

export interface Acquired {
  pixels: Pixels;
  facts: ImageFacts;
  /** The rated polygon in `pixels` coordinates, when the image came from a place. */
  outline: [number, number][] | null;
}

const urlTooLarge = () => imageTooLarge('The image at image_url is over 15 MB; at most 15 MB is rated');

async function fromUrl(ctx: ServiceContext, url: string): Promise<Buffer> {
  let fetched: Awaited<ReturnType<typeof fetchPublic>>;
  try {
    fetched = await fetchPublic(url, { allowPrivate: ctx.deps.outbound.allowPrivateNetwork });
  } catch (err) {
    if (err instanceof FetchFailed) throw imageRejected(`Could not fetch image_url: ${err.message}`);
    throw err;
  }
  if (fetched.announcedBytes !== null && fetched.announcedBytes > IMAGE_MAX_BYTES) {
    fetched.body.destroy();
    throw urlTooLarge();
  }
  let bytes: Buffer | null;
  try {
    bytes = await cappedBytes(fetched.body, IMAGE_MAX_BYTES);
  } catch (err) {
    fetched.body.destroy();
    throw imageRejected(`Could not fetch image_url: ${(err as Error).message || 'the download broke off'}`);
  }
  if (!bytes) throw urlTooLarge();
  return bytes;
}

async function geocoded(ctx: ServiceContext, address: string): Promise<ImageryPlace> {
  return { point: await geocodedPoint(ctx, address, 'send polygon or lat and lng') };
}

/** The mosaic as the detector reads it: at most ANALYSIS_MAX_PX on its longer side. */
async function fromPlace(ctx: ServiceContext, req: RatingRequest, place: ImageryPlace): Promise<Acquired> {
  const mosaic = await mosaicOf(ctx, place, { source: req.imagerySource, zoom: req.zoom ?? undefined }, (message) =>
    invalidRequest(message, 'polygon' in place ? 'polygon' : 'lat'),
  );
  const { meta } = mosaic;
  const scale = Math.min(1, ANALYSIS_MAX_PX / Math.max(meta.width, meta.height));
  let pixels: Pixels = { width: meta.width, height: meta.height, channels: 3, data: new Uint8Array(mosaic.pixels) };
  if (scale < 1) {
    const { data, info } = await sharp(mosaic.pixels, { raw: { width: meta.width, height: meta.height, channels: 3 } })
      .resize({ width: Math.round(meta.width * scale), height: Math.round(meta.height * scale), fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    pixels = { width: info.width, height: info.height, channels: 3, data: new Uint8Array(data) };
  }
  const sx = pixels.width / meta.width;
  const sy = pixels.height / meta.height;
  return {
    pixels,
    outline: mosaic.outline?.map(([x, y]): [number, number] => [x * sx, y * sy]) ?? null,
    facts: {
      source: meta.source,
      capture_date: meta.source === 'premium' ? meta.capture_date : null,
      survey_id: null,
      lat: meta.lat,
      lng: meta.lng,
      zoom: meta.zoom,
      width: meta.width,
      height: meta.height,
      meters_per_pixel: meta.meters_per_pixel,
      outlined: mosaic.outline !== null,
    },
  };
}

async function fromBytes(bytes: Buffer, source: 'upload' | 'url'): Promise<Acquired> {
  const image = await decodeImage(bytes);
  return {
    pixels: image.pixels,
    outline: null,
    facts: {
      source,
      survey_id: null,
      lat: null,
      lng: null,
      zoom: null,
      width: image.width,
      height: image.height,
      meters_per_pixel: null,
      outlined: false,
    },
  };
}

export async function acquireImage(ctx: ServiceContext, req: RatingRequest): Promise<Acquired> {
  const s = req.source;
  if (s.kind === 'upload') return fromBytes(s.bytes, 'upload');
  if (s.kind === 'url') return fromBytes(await fromUrl(ctx, s.url), 'url');
  const p = s.place;
  const place: ImageryPlace =
    p.kind === 'polygon'
      ? { polygon: p.outline }
      : p.kind === 'point'
        ? { point: { lat: p.lat, lng: p.lng } }
        : await geocoded(ctx, p.address);
  return fromPlace(ctx, req, place);
}
