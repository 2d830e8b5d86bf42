// What a measurement's imagery shows: the box's mosaic read from the configured imagery (standard
// source), cut to the box exactly (imagery frames a place with a margin), and the paved surfaces,
// painted lines and stalls found in it by the operator's segmentation endpoint when one is set
// (GROUNDWORK_SEGMENTATION_URL), else by the built-in detector (engines/paved). Runs before any
// write, outside every transaction (guide: outside calls never run while a lock is held).
import sharp from 'sharp';
import type { detectPaved, PavedFindings, RawPixels } from '#engines/paved/index.ts';
import { onEngineThread } from '#platform/engine-thread.ts';
import type { ServiceContext } from '#platform/context.ts';
import { ApiError } from '#platform/errors.ts';
import { mosaicOf } from '#platform/imagery/answers.ts';
import { toPixel } from '#platform/imagery/web-mercator.ts';
import { SegmentationFailed } from '#platform/segmentation.ts';
import { invalidPlace, type Place } from './place.ts';

export interface Seen {
  findings: PavedFindings;
  detector: 'built_in' | 'segmentation';
  /** Where the cut image sits in global pixels at `zoom`: image pixel (x, y) is global (left + x, top + y). */
  zoom: number;
  left: number;
  top: number;
  imagery: {
    source: 'standard';
    zoom: number;
    meters_per_pixel: number;
    width: number;
    height: number;
    capture_date: string | null;
    coverage_pct: number;
  };
}

/** The built-in detector, off the event loop (platform/engine-thread.ts); the pixels move there. */
const detectOnThread = onEngineThread<typeof detectPaved>('#engines/paved/index.ts', 'detectPaved');

export const detectionFailed = (message: string) =>
  new ApiError(502, 'Detection failed', { code: 'detection_failed', message });

export async function seePlace(ctx: ServiceContext, place: Place): Promise<Seen> {
  const { north, south, east, west } = place.box;
  const corners: [number, number][] = [
    [north, west],
    [north, east],
    [south, east],
    [south, west],
  ];
  const mosaic = await mosaicOf(ctx, { polygon: corners }, { source: 'standard', zoom: place.zoom }, (message) =>
    invalidPlace(message, 'bounds'),
  );
  const { meta } = mosaic;
  const outline = mosaic.outline!;
  const x0 = Math.max(0, Math.floor(Math.min(...outline.map((p) => p[0]))));
  const y0 = Math.max(0, Math.floor(Math.min(...outline.map((p) => p[1]))));
  const x1 = Math.min(meta.width, Math.ceil(Math.max(...outline.map((p) => p[0]))));
  const y1 = Math.min(meta.height, Math.ceil(Math.max(...outline.map((p) => p[1]))));
  const width = x1 - x0;
  const height = y1 - y0;
  const raw = { width: meta.width, height: meta.height, channels: 3 as const };
  const cut = await sharp(mosaic.pixels, { raw }).extract({ left: x0, top: y0, width, height });
  const origin = toPixel(meta.bounds.north, meta.bounds.west, meta.zoom);
  const facts = {
    source: 'standard' as const,
    zoom: meta.zoom,
    meters_per_pixel: meta.meters_per_pixel,
    width,
    height,
    capture_date: meta.capture_date,
    coverage_pct: meta.coverage_pct,
  };
  const at = { zoom: meta.zoom, left: Math.round(origin.x) + x0, top: Math.round(origin.y) + y0, imagery: facts };
  const segmentation = ctx.deps.segmentation;
  if (segmentation) {
    const png = await cut.png().toBuffer();
    try {
      const findings = await segmentation.segmentPaved({
        png,
        width,
        height,
        metersPerPixel: meta.meters_per_pixel,
        bounds: place.box,
      });
      return { findings, detector: 'segmentation', ...at };
    } catch (err) {
      if (err instanceof SegmentationFailed) throw detectionFailed(err.message);
      throw err;
    }
  }
  const { data } = await cut.raw().toBuffer({ resolveWithObject: true });
  const pixels: RawPixels = { width, height, channels: 3, data: new Uint8Array(data) };
  const findings = await detectOnThread(
    [pixels, { metersPerPixel: meta.meters_per_pixel }],
    [pixels.data.buffer as ArrayBuffer],
  );
  return { findings, detector: 'built_in', ...at };
}
