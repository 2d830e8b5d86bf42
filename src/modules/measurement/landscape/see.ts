// What a detect run sees in one window: the window's mosaic (standard imagery, with imagery's
// margin) and the areas and objects found in it by the operator's segmentation endpoint when one is
// set (GROUNDWORK_SEGMENTATION_URL, task landscape), else by the built-in detector
// (engines/landscape), placed on the map as [lat, lng]. Runs in the worker, outside every
// transaction. A class the detector should not answer (a drawn class such as road, or one we do not
// know) fails the run rather than being guessed at.
import sharp from 'sharp';
import type { detectLandscape } from '#engines/landscape/index.ts';
import { onEngineThread } from '#platform/engine-thread.ts';
import type { LatLng, Ring } from '#engines/geometry/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { ApiError } from '#platform/errors.ts';
import { mosaicOf } from '#platform/imagery/answers.ts';
import { fromPixel, toPixel } from '#platform/imagery/web-mercator.ts';
import { type LandscapeSegments, SegmentationFailed } from '#platform/segmentation.ts';
import { detectionFailed } from '../measurements/detect.ts';
import { areaClass, objectClass, PAVED_CLASSES } from './classes.ts';
import type { BoxOf } from './outline.ts';

export interface Found {
  areas: { class: string; rings: Ring[] }[];
  objects: { class: string; point: LatLng }[];
}

export interface SeenWindow {
  found: Found;
  detector: 'built_in' | 'segmentation';
  zoom: number;
  meters_per_pixel: number;
  capture_date: string | null;
}

/** The built-in detector, off the event loop (platform/engine-thread.ts); the pixels move there. */
const detectOnThread = onEngineThread<typeof detectLandscape>('#engines/landscape/index.ts', 'detectLandscape');

const refused = (message: string) => new ApiError(400, message, { code: 'invalid_outline', message });

function checkedClasses(s: LandscapeSegments): void {
  for (const a of s.areas)
    if (!areaClass(a.class) || PAVED_CLASSES.has(a.class))
      throw new SegmentationFailed(`areas: ${a.class} is not a detected landscape area class`);
  for (const o of s.objects)
    if (!objectClass(o.class)) throw new SegmentationFailed(`objects: ${o.class} is not a landscape object class`);
}

export async function seeWindow(ctx: Pick<ServiceContext, 'deps'>, w: BoxOf, zoom: number): Promise<SeenWindow> {
  const corners: LatLng[] = [
    [w.north, w.west],
    [w.north, w.east],
    [w.south, w.east],
    [w.south, w.west],
  ];
  const mosaic = await mosaicOf(ctx, { polygon: corners }, { source: 'standard', zoom }, refused);
  const { meta } = mosaic;
  const origin = toPixel(meta.bounds.north, meta.bounds.west, meta.zoom);
  const left = Math.round(origin.x);
  const top = Math.round(origin.y);
  const place = ([x, y]: [number, number]): LatLng => {
    const p = fromPixel(left + x, top + y, meta.zoom);
    return [p.lat, p.lng];
  };
  let segments: LandscapeSegments;
  let detector: SeenWindow['detector'];
  try {
    if (ctx.deps.segmentation) {
      const png = await sharp(mosaic.pixels, { raw: { width: meta.width, height: meta.height, channels: 3 } })
        .png()
        .toBuffer();
      segments = await ctx.deps.segmentation.segmentLandscape({
        png,
        width: meta.width,
        height: meta.height,
        metersPerPixel: meta.meters_per_pixel,
        bounds: meta.bounds,
      });
      detector = 'segmentation';
    } else {
      const data = new Uint8Array(mosaic.pixels);
      const findings = await detectOnThread(
        [{ width: meta.width, height: meta.height, channels: 3, data }, { metersPerPixel: meta.meters_per_pixel }],
        [data.buffer],
      );
      segments = {
        areas: findings.areas.map((a) => ({ class: a.class, rings: a.rings })),
        objects: findings.objects.map((o) => ({ class: o.class, point: o.point, radius_m: o.radius_m })),
      };
      detector = 'built_in';
    }
    checkedClasses(segments);
  } catch (err) {
    if (err instanceof SegmentationFailed) throw detectionFailed(err.message);
    throw err;
  }
  return {
    found: {
      areas: segments.areas.map((a) => ({ class: a.class, rings: a.rings.map((r) => r.map(place)) })),
      objects: segments.objects.map((o) => ({ class: o.class, point: place(o.point) })),
    },
    detector,
    zoom: meta.zoom,
    meters_per_pixel: meta.meters_per_pixel,
    capture_date: meta.capture_date,
  };
}
