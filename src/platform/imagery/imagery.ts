// Aerial imagery (guide, "Outside services"): one interface every area shares (condition ratings
// now; aerial measurement and landscape takeoffs later). Given a place and a source it answers a
// mosaic of XYZ tiles cropped around the place, as raw RGB pixels with the facts a rating reports
// (zoom, size, meters per pixel, capture date). The embedded default is none: every request is
// ImageryNotConfigured (500 imagery_unavailable), never made-up imagery. docs/api-decisions.md,
// "Condition ratings: imagery", has the decisions (zoom, margin, cache, errors).
import type { ErrorCode } from '../errors.ts';

export type ImagerySource = 'standard' | 'premium';

/** [lat, lng] in degrees (the order the API's polygon uses). */
export type LatLng = [number, number];

/** A polygon of 3+ points ([lat, lng]; closed or not), or a point. */
export type ImageryPlace = { polygon: LatLng[] } | { point: { lat: number; lng: number } };

export interface MosaicOptions {
  source: ImagerySource;
  /** 16 to 21; absent: the largest ≤ 20 at which the place fits FIT_PX (framing.ts). */
  zoom?: number;
}

export interface Bounds {
  north: number;
  south: number;
  east: number;
  west: number;
}

export interface MosaicMeta {
  source: ImagerySource;
  /** YYYY-MM-DD for premium imagery when the tile server tells it; always null for standard. */
  capture_date: string | null;
  zoom: number;
  width: number;
  height: number;
  /** Ground meters per pixel at the image's centre: 156543.03392 × cos(lat) ÷ 2^zoom. */
  meters_per_pixel: number;
  /** The image's centre. */
  lat: number;
  lng: number;
  /** The image's edges (the place plus its margin, snapped to whole pixels). */
  bounds: Bounds;
  /** Share of the image's pixels that tiles covered (0 to 100); the rest is black. */
  coverage_pct: number;
}

export interface Mosaic {
  /** Raw RGB, row by row from the top left, 3 bytes a pixel: `sharp(pixels, {raw: {width, height, channels: 3}})`. */
  pixels: Buffer;
  channels: 3;
  meta: MosaicMeta;
  /** The polygon in the image's pixel coordinates ([x, y], fractional), for outlining and masking; null for a point. */
  outline: Array<[number, number]> | null;
}

export interface Imagery {
  /** Which sources have a tile server; asking another answers ImageryNotConfigured. */
  readonly sources: Readonly<Record<ImagerySource, boolean>>;
  mosaic(place: ImageryPlace, options: MosaicOptions): Promise<Mosaic>;
}

/**
 * Every way imagery can fail, with the status and code the spec's error table gives it, so an
 * endpoint answers `new ApiError(e.status, e.code, {code: e.code, message: e.message})`.
 */
export abstract class ImageryError extends Error {
  abstract readonly status: number;
  abstract readonly code: ErrorCode;
}

/** No tile server for this source (GROUNDWORK_IMAGERY_URL / GROUNDWORK_PREMIUM_IMAGERY_URL unset). */
export class ImageryNotConfigured extends ImageryError {
  readonly status = 500;
  readonly code = 'imagery_unavailable' as const;
  constructor(source: ImagerySource) {
    super(
      `This server has no ${source} imagery: set ${source === 'premium' ? 'GROUNDWORK_PREMIUM_IMAGERY_URL' : 'GROUNDWORK_IMAGERY_URL'}`,
    );
    this.name = 'ImageryNotConfigured';
  }
}

/** The tile server could not be reached, answered 5xx (or another refusal), or sent a tile that does not decode. */
export class ImageryUnreachable extends ImageryError {
  readonly status = 502;
  readonly code = 'imagery_unavailable' as const;
  constructor(reason: string) {
    super(`The imagery server could not answer: ${reason}`);
    this.name = 'ImageryUnreachable';
  }
}

/** Every tile the image needs is missing (404, 410, 204 or an empty body): no imagery there at that zoom. */
export class NoImageryCoverage extends ImageryError {
  readonly status = 422;
  readonly code = 'no_imagery_coverage' as const;
  constructor(source: ImagerySource, zoom: number) {
    super(
      source === 'premium'
        ? `No premium imagery covers this place at zoom ${zoom}; retry with imagery_source standard`
        : `No imagery covers this place at zoom ${zoom}; try a lower zoom`,
    );
    this.name = 'NoImageryCoverage';
  }
}

/** The place is not one imagery can frame: bad coordinates, or too big for the zoom asked. */
export class ImageryPlaceRefused extends ImageryError {
  readonly status = 400;
  readonly code = 'invalid_request' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ImageryPlaceRefused';
  }
}

/** The embedded default: no tile server, so every request is ImageryNotConfigured. */
export const noImagery: Imagery = {
  sources: { standard: false, premium: false },
  async mosaic(_place, options) {
    throw new ImageryNotConfigured(options.source);
  },
};
