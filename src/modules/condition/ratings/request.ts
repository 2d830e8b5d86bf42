// The body of POST /v1/condition/paser and /pci read into one request, the same from JSON and from
// multipart (document 3: "Same body, JSON or multipart (polygon as a JSON string in forms)"). In a
// form every field is text, so numbers, booleans and the polygon are read from text there. The
// image source: an image (file, base64 or data URI) overrides location fields; otherwise the first
// of polygon, lat plus lng, address. image and image_url together are two sources: 400.
import { recordIdOf } from '#platform/schemas.ts';
import { invalidImage, invalidRequest, missingImage } from './errors.ts';
import { type LatLng, readPolygon } from './polygon.ts';

export const IMAGERY_SOURCES = ['standard', 'premium'] as const;
export const PAVEMENT_TYPES = ['auto', 'asphalt', 'concrete'] as const;
export const ZOOM = { min: 16, max: 21 } as const;
export const NOTES_MAX = 1_000;
export const IMAGE_URL_MAX = 2_000;

export type Place =
  | { kind: 'polygon'; outline: LatLng[] }
  | { kind: 'point'; lat: number; lng: number }
  | { kind: 'address'; address: string };

export type Source = { kind: 'upload'; bytes: Buffer } | { kind: 'url'; url: string } | { kind: 'place'; place: Place };

export interface RatingRequest {
  source: Source;
  imagerySource: (typeof IMAGERY_SOURCES)[number];
  zoom: number | null;
  pavementType: (typeof PAVEMENT_TYPES)[number];
  notes: string | null;
  returnImage: boolean;
  locationId: number | null;
}

const FIELDS = new Set([
  'image',
  'image_url',
  'polygon',
  'lat',
  'lng',
  'address',
  'imagery_source',
  'zoom',
  'pavement_type',
  'notes',
  'return_image',
  'location_id',
]);

const absent = (v: unknown) => v === undefined || v === null || v === '';

function text(fields: Record<string, unknown>, name: string, max: number): string | null {
  const v = fields[name];
  if (absent(v)) return null;
  if (typeof v !== 'string') throw invalidRequest(`${name} must be a string`, name);
  const t = v.trim();
  if (t.length > max) throw invalidRequest(`${name} may be at most ${max} characters`, name);
  return t === '' ? null : t;
}

function number(fields: Record<string, unknown>, name: string, form: boolean): number | null {
  const v = fields[name];
  if (absent(v)) return null;
  const n = form && typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw invalidRequest(`${name} must be a number`, name);
  return n;
}

function choice<T extends string>(
  fields: Record<string, unknown>,
  name: string,
  options: readonly T[],
  fallback: T,
): T {
  const v = fields[name];
  if (absent(v)) return fallback;
  if (typeof v !== 'string' || !(options as readonly string[]).includes(v))
    throw invalidRequest(`${name} must be one of ${options.join(', ')}`, name);
  return v as T;
}

function flag(fields: Record<string, unknown>, name: string, form: boolean): boolean {
  const v = fields[name];
  if (absent(v)) return false;
  if (typeof v === 'boolean') return v;
  if (form && (v === 'true' || v === '1')) return true;
  if (form && (v === 'false' || v === '0')) return false;
  throw invalidRequest(`${name} must be true or false`, name);
}

/** An image sent as text: a data URI (JPEG, PNG or WebP) or bare base64. */
export function decodeImageText(value: string): Buffer {
  let payload = value.trim();
  const dataUri = /^data:([^;,]*)(;base64)?,/i.exec(payload);
  if (dataUri) {
    if (!dataUri[2]) throw invalidImage('A data URI image must be base64 (data:image/jpeg;base64,...)');
    payload = payload.slice(dataUri[0].length);
  }
  const compact = payload.replace(/\s+/g, '');
  if (!isBase64(compact)) throw invalidImage('image is neither a data URI nor base64');
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

/**
 * Base64 or base64url letters, then at most two `=`. A loop, not a regular expression: an image may
 * be 20 MB of text, and a long-running server answered such a body 500 (RegExp.test threw "Maximum
 * call stack size exceeded" once V8 had compiled the pattern to machine code).
 */
function isBase64(text: string): boolean {
  let end = text.length;
  while (end > 0 && text.length - end < 2 && text.charCodeAt(end - 1) === 61) end--; // =
  if (end === 0) return false;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const letter =
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      (c >= 48 && c <= 57) ||
      c === 43 ||
      c === 47 ||
      c === 45 ||
      c === 95; // + / - _
    if (!letter) return false;
  }
  return true;
}

function place(fields: Record<string, unknown>, form: boolean): Place | null {
  if (!absent(fields.polygon)) {
    let value = fields.polygon;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        throw invalidRequest('polygon must be JSON: [[lat, lng], ...] or a GeoJSON Polygon or Feature', 'polygon');
      }
    }
    return { kind: 'polygon', outline: readPolygon(value) };
  }
  const lat = number(fields, 'lat', form);
  const lng = number(fields, 'lng', form);
  if ((lat === null) !== (lng === null))
    throw invalidRequest('Send lat and lng together', lat === null ? 'lat' : 'lng');
  if (lat !== null && lng !== null) {
    if (lat < -85 || lat > 85) throw invalidRequest('lat must be between -85 and 85', 'lat');
    if (lng < -180 || lng > 180) throw invalidRequest('lng must be between -180 and 180', 'lng');
    return { kind: 'point', lat, lng };
  }
  const address = text(fields, 'address', 500);
  return address === null ? null : { kind: 'address', address };
}

/**
 * Reads the fields (JSON's, or a form's as text) and the uploaded file (multipart's `image`).
 * `form` is true for multipart, where numbers and flags arrive as text.
 */
export function readRatingRequest(fields: Record<string, unknown>, file: Buffer | null, form: boolean): RatingRequest {
  const unknown = Object.keys(fields).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) throw invalidRequest(`Unknown fields: ${unknown.join(', ')}`);
  const imageText = fields.image;
  if (!absent(imageText) && typeof imageText !== 'string')
    throw invalidImage('image must be a file, a base64 string or a data URI');
  if (file && !absent(imageText)) throw invalidRequest('Send the image once: as a file or as text, not both', 'image');
  const imageUrl = text(fields, 'image_url', IMAGE_URL_MAX);
  const hasImage = file !== null || !absent(imageText);
  if (hasImage && imageUrl !== null)
    throw invalidRequest('Send exactly one image source: image or image_url, not both', 'image_url');
  const returnImage = flag(fields, 'return_image', form);
  if (returnImage && imageUrl !== null)
    throw invalidRequest('return_image is not offered with image_url', 'return_image');
  const zoom = number(fields, 'zoom', form);
  if (zoom !== null && (!Number.isInteger(zoom) || zoom < ZOOM.min || zoom > ZOOM.max))
    throw invalidRequest(`zoom must be an integer from ${ZOOM.min} to ${ZOOM.max}`, 'zoom');
  const locationId = number(fields, 'location_id', form);
  if (locationId !== null && recordIdOf(locationId) === null)
    throw invalidRequest('location_id must be a site id (a positive 32-bit integer)', 'location_id');
  const common = {
    imagerySource: choice(fields, 'imagery_source', IMAGERY_SOURCES, 'standard'),
    zoom,
    pavementType: choice(fields, 'pavement_type', PAVEMENT_TYPES, 'auto'),
    notes: text(fields, 'notes', NOTES_MAX),
    returnImage,
    locationId,
  };
  // An image overrides location fields, but they must still be well formed.
  const where = place(fields, form);
  if (file) return { ...common, source: { kind: 'upload', bytes: file } };
  if (typeof imageText === 'string' && imageText !== '')
    return { ...common, source: { kind: 'upload', bytes: decodeImageText(imageText) } };
  if (imageUrl !== null) return { ...common, source: { kind: 'url', url: imageUrl } };
  if (where) return { ...common, source: { kind: 'place', place: where } };
  throw missingImage();
}
