// How an endpoint that looks at a place answers when imagery or the geocoder cannot help (document
// 3's error table: imagery_unavailable 500 or 502, no_imagery_coverage 422, address_not_found 422,
// geocode_failed 502), shared by condition ratings and measurement so both answer alike. Each is
// `{error, code, message}`; the message says what to do instead.
import type { ServiceContext } from '../context.ts';
import { ApiError, type ErrorCode } from '../errors.ts';
import { GeocoderUnavailable } from '../geocoding.ts';
import { ImageryError, type ImageryPlace, type ImagerySource, type Mosaic, type MosaicOptions } from './imagery.ts';

/** Below this share of the image covered by tiles, the imagery does not show the place. */
export const MIN_COVERAGE_PCT = 50;

const answer = (status: number, code: ErrorCode, message: string) => new ApiError(status, code, { code, message });

export const noImageryCoverage = (source: ImagerySource) =>
  answer(
    422,
    'no_imagery_coverage',
    source === 'premium'
      ? 'Premium imagery has no survey at this place: retry with imagery_source standard'
      : 'The imagery has no tiles at this place',
  );

/** 500 when the server has no imagery configured; 502 when the imagery server failed. */
export const imageryUnavailable = (status: 500 | 502, message: string) =>
  answer(status, 'imagery_unavailable', message);

export const geocodeFailed = (message: string) => answer(502, 'geocode_failed', message);

/** `instead` says what to send in place of the address ("send polygon or lat and lng"). */
export const addressNotFound = (instead: string) =>
  answer(422, 'address_not_found', `The geocoder found no place for this address: ${instead}`);

/** The address's point, or the answers above. */
export async function geocodedPoint(
  ctx: ServiceContext,
  address: string,
  instead: string,
): Promise<{ lat: number; lng: number }> {
  try {
    const point = await ctx.deps.geocoder.geocode(address);
    if (!point) throw addressNotFound(instead);
    return point;
  } catch (err) {
    if (err instanceof GeocoderUnavailable) throw geocodeFailed(`The geocoder could not answer: ${err.reason}`);
    throw err;
  }
}

/**
 * The mosaic of a place, with imagery's failures turned into the answers above; a place imagery
 * refuses (bad coordinates, too large for the zoom) is `refused(message)`, the caller's own 400.
 * Too little of the image covered by tiles is no_imagery_coverage.
 */
export async function mosaicOf(
  ctx: Pick<ServiceContext, 'deps'>,
  place: ImageryPlace,
  options: MosaicOptions,
  refused: (message: string) => ApiError,
): Promise<Mosaic> {
  let mosaic: Mosaic;
  try {
    mosaic = await ctx.deps.imagery.mosaic(place, options);
  } catch (err) {
    if (err instanceof ImageryError) {
      if (err.code === 'no_imagery_coverage') throw noImageryCoverage(options.source);
      if (err.code === 'imagery_unavailable') throw imageryUnavailable(err.status === 500 ? 500 : 502, err.message);
      throw refused(err.message);
    }
    throw err;
  }
  if (mosaic.meta.coverage_pct < MIN_COVERAGE_PCT) throw noImageryCoverage(options.source);
  return mosaic;
}
