// The pluggable vision endpoint (guide, "Outside services": pavement distress detection). When the
// operator sets GROUNDWORK_VISION_URL, a rating's image goes there instead of to the built-in
// detector (engines/distress). The URL is the operator's, like the geocoder's, so it may be on a
// private network and is not run through outbound.ts. docs/condition.md, "The vision endpoint",
// gives the contract:
//
//   POST <url>   Content-Type: application/json
//   { "image": { "jpeg_base64", "width", "height", "meters_per_pixel": number | null,
//                "source": "upload" | "url" | "standard" | "premium" },
//     "pavement_type": "auto" | "asphalt" | "concrete",
//     "rating_type": "paser" | "pci" }
//   200 { "visible_pavement_pct": 0–100, "pavement_type": "asphalt" | "concrete",
//         "view"?: "aerial" | "ground" | "other", "quality"?: "good" | "fair" | "poor",
//         "confidence"?: 0–1, "limitations"?: [string],
//         "distresses": [{ "type", "severity": "low" | "medium" | "high", "density_pct",
//                          "density_unit"?, "where"? }] }
//
// Anything else (no answer in time, a non-2xx status, a body that is not that shape) is
// VisionFailed, which a rating answers as 502 rating_failed.
import { askOutside, cappedBytes, endpointUrl, whyFailed } from './outside-answer.ts';

export interface VisionImage {
  jpeg: Buffer;
  width: number;
  height: number;
  metersPerPixel: number | null;
  source: 'upload' | 'url' | 'standard' | 'premium';
}

export interface VisionDistress {
  type: string;
  severity: 'low' | 'medium' | 'high';
  density_pct: number;
  density_unit: string | null;
  where: string | null;
}

export interface VisionFindings {
  visible_pavement_pct: number;
  pavement_type: 'asphalt' | 'concrete';
  view: 'aerial' | 'ground' | 'other' | null;
  quality: 'good' | 'fair' | 'poor' | null;
  confidence: number | null;
  limitations: string[];
  distresses: VisionDistress[];
}

export interface Vision {
  detect(
    image: VisionImage,
    options: { pavementType: 'auto' | 'asphalt' | 'concrete'; ratingType: 'paser' | 'pci' },
  ): Promise<VisionFindings>;
}

export class VisionFailed extends Error {
  constructor(reason: string) {
    super(`The vision endpoint could not rate the image: ${reason}`);
    this.name = 'VisionFailed';
  }
}

// A findings answer is a few kilobytes; far more is not one.
const MAX_BODY_BYTES = 2 * 1024 * 1024;

const oneOf = <T extends string>(v: unknown, options: readonly T[]): v is T =>
  typeof v === 'string' && (options as readonly string[]).includes(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The answer read strictly: a field of the wrong shape is a failed rating, never a guessed one. */
export function readFindings(body: unknown): VisionFindings {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object') throw new VisionFailed('the answer is not a JSON object');
  if (!finite(b.visible_pavement_pct) || b.visible_pavement_pct < 0 || b.visible_pavement_pct > 100)
    throw new VisionFailed('visible_pavement_pct must be a number from 0 to 100');
  if (!oneOf(b.pavement_type, ['asphalt', 'concrete'] as const))
    throw new VisionFailed('pavement_type must be asphalt or concrete');
  if (!Array.isArray(b.distresses)) throw new VisionFailed('distresses must be an array');
  const distresses = b.distresses.map((d: Record<string, unknown> | null, i): VisionDistress => {
    if (!d || typeof d.type !== 'string') throw new VisionFailed(`distresses[${i}].type must be a string`);
    if (!oneOf(d.severity, ['low', 'medium', 'high'] as const))
      throw new VisionFailed(`distresses[${i}].severity must be low, medium or high`);
    if (!finite(d.density_pct) || d.density_pct < 0) throw new VisionFailed(`distresses[${i}].density_pct must be ≥ 0`);
    return {
      type: d.type,
      severity: d.severity,
      density_pct: d.density_pct,
      density_unit: typeof d.density_unit === 'string' ? d.density_unit : null,
      where: typeof d.where === 'string' ? d.where.slice(0, 200) : null,
    };
  });
  const confidence = b.confidence;
  if (confidence !== undefined && (!finite(confidence) || confidence < 0 || confidence > 1))
    throw new VisionFailed('confidence must be a number from 0 to 1');
  return {
    visible_pavement_pct: b.visible_pavement_pct,
    pavement_type: b.pavement_type,
    view: oneOf(b.view, ['aerial', 'ground', 'other'] as const) ? b.view : null,
    quality: oneOf(b.quality, ['good', 'fair', 'poor'] as const) ? b.quality : null,
    confidence: finite(confidence) ? confidence : null,
    limitations: Array.isArray(b.limitations)
      ? b.limitations.filter((l): l is string => typeof l === 'string').map((l) => l.slice(0, 500))
      : [],
    distresses,
  };
}

export function httpVision(url: string, options: { timeoutMs?: number } = {}): Vision {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return {
    async detect(image, { pavementType, ratingType }) {
      let text: string;
      try {
        const res = await askOutside(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            image: {
              jpeg_base64: image.jpeg.toString('base64'),
              width: image.width,
              height: image.height,
              meters_per_pixel: image.metersPerPixel,
              source: image.source,
            },
            pavement_type: pavementType,
            rating_type: ratingType,
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (res.statusCode < 200 || res.statusCode >= 300) {
          res.body.dump({ limit: 64 * 1024 }).catch(() => {});
          throw new VisionFailed(`HTTP ${res.statusCode}`);
        }
        const bytes = await cappedBytes(res.body, MAX_BODY_BYTES);
        if (!bytes) throw new VisionFailed('the answer is too large');
        text = bytes.toString('utf8');
      } catch (err) {
        if (err instanceof VisionFailed) throw err;
        throw new VisionFailed(whyFailed(err, timeoutMs));
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new VisionFailed('the answer is not JSON');
      }
      return readFindings(body);
    },
  };
}

/** The vision endpoint for GROUNDWORK_VISION_URL; null (the built-in detector) when unset. */
export function visionFor(url: string | null | undefined): Vision | null {
  const endpoint = endpointUrl(url, 'GROUNDWORK_VISION_URL');
  return endpoint === null ? null : httpVision(endpoint);
}
