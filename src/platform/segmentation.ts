// The pluggable segmentation endpoint (guide, "Outside services": landscape and pavement detection).
// When the operator sets GROUNDWORK_SEGMENTATION_URL, aerial measurement sends the mosaic there
// instead of running the built-in paved-surface detector (engines/paved). The URL is the
// operator's, like the vision endpoint's, so it may be on a private network and is not run through
// outbound.ts. docs/api-decisions.md, "Measurement: the segmentation endpoint", gives the contract:
//
//   POST <url>   Content-Type: application/json
//   { "task": "paved",
//     "image": { "png_base64", "width", "height", "meters_per_pixel",
//                "bounds": { "north", "south", "east", "west" } } }
//   200 { "surfaces": [{ "surface": "asphalt" | "concrete", "rings": [[[x, y], …], …] }],
//         "lines":    [{ "colour": "white" | "yellow", "points": [[x, y], …] }],
//         "stalls":   [{ "point": [x, y] }] }
//
// Points are in the image's pixels (x to the right, y down, fractional allowed), within the image
// or at most EDGE_MARGIN_PX past its edge. A ring has 3 or more points (outline first, then holes;
// a closing repeat of the first point is dropped), a line 2 or more. Fields the contract does not
// name are ignored, so an endpoint may say more than we read.
//
// Anything else (no answer in time, a non-2xx status, a body that is not that shape or past the
// caps below) is SegmentationFailed. Task "landscape" (landscape takeoffs' detect runs) answers
// { "areas": [{ "class", "rings" }], "objects": [{ "class", "point", "radius_m"? }] } in the same
// pixels; docs/api-decisions.md, "Landscape: the segmentation endpoint".
import type {
  FoundLine,
  FoundStall,
  FoundSurface,
  PaintColour,
  PavedFindings,
  PavedSurface,
  PixelPoint,
} from '#engines/paved/types.ts';
import { askOutside, cappedBytes, endpointUrl, whyFailed } from './outside-answer.ts';

export interface SegmentationImage {
  png: Buffer;
  width: number;
  height: number;
  metersPerPixel: number;
  /** The mosaic's extent in degrees, so an endpoint that works on the ground can place it. */
  bounds: { north: number; south: number; east: number; west: number };
}

export type SegmentationTask = 'paved' | 'landscape';

export interface Segmentation {
  /** The paved surfaces, painted lines and stalls the endpoint finds in the image. */
  segmentPaved(image: SegmentationImage, signal?: AbortSignal): Promise<PavedFindings>;
  /** The landscape areas (lawn, beds…) and objects (trees, shrubs) the endpoint finds in the image. */
  segmentLandscape(image: SegmentationImage, signal?: AbortSignal): Promise<LandscapeSegments>;
}

/** A landscape answer: class ids as sent (the landscape area checks them), pixel coordinates. */
export interface LandscapeSegments {
  areas: { class: string; rings: PixelPoint[][] }[];
  objects: { class: string; point: PixelPoint; radius_m: number | null }[];
}

/** The endpoint gave no usable answer; measurement answers it as 502 detection_failed. */
export class SegmentationFailed extends Error {
  readonly status = 502;
  readonly code: string = 'detection_failed' as const;

  constructor(reason: string) {
    super(`The segmentation endpoint could not segment the image: ${reason}`);
    this.name = 'SegmentationFailed';
  }
}

// Caps on what one answer may hold. A dense lot is a few hundred surfaces and a few thousand
// lines; far more is a runaway endpoint, refused before it is turned into geometry.
export const SEGMENTATION_LIMITS = {
  bodyBytes: 20 * 1024 * 1024,
  surfaces: 5_000,
  ringsPerSurface: 1_000,
  lines: 20_000,
  stalls: 20_000,
} as const;

/** How far past the image's edge a point may lie (a traced outline on the border lands on it). */
export const EDGE_MARGIN_PX = 2;

/** The JSON body for `task` on `image` (the contract above). */
export function segmentationRequest(task: SegmentationTask, image: SegmentationImage): string {
  const { north, south, east, west } = image.bounds;
  return JSON.stringify({
    task,
    image: {
      png_base64: image.png.toString('base64'),
      width: image.width,
      height: image.height,
      meters_per_pixel: image.metersPerPixel,
      bounds: { north, south, east, west },
    },
  });
}

const oneOf = <T extends string>(v: unknown, options: readonly T[]): v is T =>
  typeof v === 'string' && (options as readonly string[]).includes(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const record = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Reads points, rings and lists of an answer for one image: every point checked against its size. */
function shapeReader(width: number, height: number) {
  const point = (v: unknown, where: string): PixelPoint => {
    if (!Array.isArray(v) || v.length !== 2 || !finite(v[0]) || !finite(v[1]))
      throw new SegmentationFailed(`${where} must be [x, y] with finite numbers`);
    const [x, y] = v;
    if (x < -EDGE_MARGIN_PX || x > width + EDGE_MARGIN_PX || y < -EDGE_MARGIN_PX || y > height + EDGE_MARGIN_PX)
      throw new SegmentationFailed(`${where} [${x}, ${y}] is outside the ${width}×${height} image`);
    return [x, y];
  };

  const points = (v: unknown, where: string, least: number): PixelPoint[] => {
    if (!Array.isArray(v)) throw new SegmentationFailed(`${where} must be an array of points`);
    if (v.length < least) throw new SegmentationFailed(`${where} must have at least ${least} points`);
    return v.map((p, i) => point(p, `${where}[${i}]`));
  };

  const ring = (v: unknown, where: string): PixelPoint[] => {
    const read = points(v, where, 3);
    // A ring may come closed (GeoJSON's habit); ours are open.
    const [first, last] = [read[0], read.at(-1)];
    if (first && last && first[0] === last[0] && first[1] === last[1]) read.pop();
    if (read.length < 3) throw new SegmentationFailed(`${where} must have at least 3 points besides the closing one`);
    return read;
  };

  const list = (v: unknown, name: string, cap: number): unknown[] => {
    if (!Array.isArray(v)) throw new SegmentationFailed(`${name} must be an array`);
    if (v.length > cap) throw new SegmentationFailed(`${name} has ${v.length} entries, more than ${cap}`);
    return v;
  };

  return { point, points, ring, list };
}

/** Reads `paved` answers for one image. */
function pavedReader(width: number, height: number) {
  const { point, points, ring, list } = shapeReader(width, height);

  const surface = (v: unknown, i: number): FoundSurface => {
    const where = `surfaces[${i}]`;
    if (!record(v)) throw new SegmentationFailed(`${where} must be an object`);
    if (!oneOf<PavedSurface>(v.surface, ['asphalt', 'concrete']))
      throw new SegmentationFailed(`${where}.surface must be asphalt or concrete`);
    const rings = list(v.rings, `${where}.rings`, SEGMENTATION_LIMITS.ringsPerSurface);
    if (rings.length === 0) throw new SegmentationFailed(`${where}.rings must hold the outline`);
    return { surface: v.surface, rings: rings.map((r, k) => ring(r, `${where}.rings[${k}]`)) };
  };

  const line = (v: unknown, i: number): FoundLine => {
    const where = `lines[${i}]`;
    if (!record(v)) throw new SegmentationFailed(`${where} must be an object`);
    if (!oneOf<PaintColour>(v.colour, ['white', 'yellow']))
      throw new SegmentationFailed(`${where}.colour must be white or yellow`);
    return { colour: v.colour, points: points(v.points, `${where}.points`, 2) };
  };

  const stall = (v: unknown, i: number): FoundStall => {
    if (!record(v)) throw new SegmentationFailed(`stalls[${i}] must be an object`);
    return { point: point(v.point, `stalls[${i}].point`) };
  };

  return (body: unknown): PavedFindings => {
    if (!record(body)) throw new SegmentationFailed('the answer is not a JSON object');
    return {
      surfaces: list(body.surfaces, 'surfaces', SEGMENTATION_LIMITS.surfaces).map(surface),
      lines: list(body.lines, 'lines', SEGMENTATION_LIMITS.lines).map(line),
      stalls: list(body.stalls, 'stalls', SEGMENTATION_LIMITS.stalls).map(stall),
    };
  };
}

/**
 * A `paved` answer read strictly for an image of `width`×`height`: a field of the wrong shape is a
 * failed detection, never a guessed one.
 */
export function readPavedFindings(body: unknown, width: number, height: number): PavedFindings {
  return pavedReader(width, height)(body);
}

/** A class name as an endpoint may send it; the landscape area says which ones it takes. */
const className = (v: unknown, where: string): string => {
  if (typeof v !== 'string' || v.length === 0 || v.length > 50)
    throw new SegmentationFailed(`${where} must be a class id (a string of 1 to 50 characters)`);
  return v;
};

/**
 * A `landscape` answer read strictly for an image of `width`×`height` (docs/api-decisions.md,
 * "Landscape: the segmentation endpoint"): areas with a class and rings, objects with a class, a
 * point and optionally the crown's radius in meters.
 */
export function readLandscapeSegments(body: unknown, width: number, height: number): LandscapeSegments {
  const { point, ring, list } = shapeReader(width, height);
  if (!record(body)) throw new SegmentationFailed('the answer is not a JSON object');
  const areas = list(body.areas, 'areas', SEGMENTATION_LIMITS.surfaces).map((v, i) => {
    const where = `areas[${i}]`;
    if (!record(v)) throw new SegmentationFailed(`${where} must be an object`);
    const rings = list(v.rings, `${where}.rings`, SEGMENTATION_LIMITS.ringsPerSurface);
    if (rings.length === 0) throw new SegmentationFailed(`${where}.rings must hold the outline`);
    return { class: className(v.class, `${where}.class`), rings: rings.map((r, k) => ring(r, `${where}.rings[${k}]`)) };
  });
  const objects = list(body.objects, 'objects', SEGMENTATION_LIMITS.stalls).map((v, i) => {
    const where = `objects[${i}]`;
    if (!record(v)) throw new SegmentationFailed(`${where} must be an object`);
    const radius = v.radius_m;
    if (radius !== undefined && radius !== null && !(finite(radius) && radius >= 0 && radius <= 100))
      throw new SegmentationFailed(`${where}.radius_m must be a number of meters from 0 to 100`);
    return {
      class: className(v.class, `${where}.class`),
      point: point(v.point, `${where}.point`),
      radius_m: typeof radius === 'number' ? radius : null,
    };
  });
  return { areas, objects };
}

export function httpSegmentation(url: string, options: { timeoutMs?: number } = {}): Segmentation {
  const timeoutMs = options.timeoutMs ?? 60_000;

  /** The parsed JSON answer to `task` on `image`. */
  async function ask(task: SegmentationTask, image: SegmentationImage, signal?: AbortSignal): Promise<unknown> {
    let text: string;
    try {
      const res = await askOutside(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: segmentationRequest(task, image),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
      });
      if (res.statusCode < 200 || res.statusCode >= 300) {
        res.body.dump({ limit: 64 * 1024 }).catch(() => {});
        throw new SegmentationFailed(`HTTP ${res.statusCode}`);
      }
      const bytes = await cappedBytes(res.body, SEGMENTATION_LIMITS.bodyBytes);
      if (!bytes) throw new SegmentationFailed(`the answer is larger than ${SEGMENTATION_LIMITS.bodyBytes} bytes`);
      text = bytes.toString('utf8');
    } catch (err) {
      // The caller's own cancellation (a run stopped) is theirs to handle, not the endpoint's failure.
      if (signal?.aborted) throw signal.reason;
      if (err instanceof SegmentationFailed) throw err;
      throw new SegmentationFailed(whyFailed(err, timeoutMs));
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new SegmentationFailed('the answer is not JSON');
    }
  }

  return {
    async segmentPaved(image, signal) {
      return readPavedFindings(await ask('paved', image, signal), image.width, image.height);
    },
    async segmentLandscape(image, signal) {
      return readLandscapeSegments(await ask('landscape', image, signal), image.width, image.height);
    },
  };
}

/** The segmentation endpoint for GROUNDWORK_SEGMENTATION_URL; null (the built-in detector) when unset. */
export function segmentationFor(url: string | null | undefined): Segmentation | null {
  const endpoint = endpointUrl(url, 'GROUNDWORK_SEGMENTATION_URL');
  return endpoint === null ? null : httpSegmentation(endpoint);
}
