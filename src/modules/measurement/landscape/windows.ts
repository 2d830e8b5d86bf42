// How a detect run reads an outline's imagery: at the largest zoom up to 20 at which the outline's
// box is at most MAX_OUTLINE_PX on its longer side (never below zoom 17), in windows of at most
// WINDOW_PX a side, each read with imagery's margin around it so a crown on a window's edge is seen
// whole. What a window finds is kept only inside its core, so the windows tile the outline without
// overlap. The built-in detector counts trees right at 0.3 m a pixel and finer, not at 0.4
// (docs/landscape-detector.md), so the box may be large: a 1,000-acre square at 40° latitude is
// zoom 19 (0.23 m), 25 windows. Pure.
import { fromPixel, toPixel } from '#platform/imagery/web-mercator.ts';
import { largestZoomWithin } from '../measurements/place.ts';
import type { BoxOf } from './outline.ts';

export const MAX_DETECT_ZOOM = 20;
export const MIN_DETECT_ZOOM = 17;
export const MAX_OUTLINE_PX = 16_384;
export const WINDOW_PX = 2_048;

export interface WindowPlan {
  zoom: number;
  /** Each window's core, in degrees. */
  windows: BoxOf[];
}

function pixelBox(b: BoxOf, z: number) {
  const nw = toPixel(b.north, b.west, z);
  const se = toPixel(b.south, b.east, z);
  return { x0: nw.x, y0: nw.y, x1: se.x, y1: se.y };
}

export function windowsOf(b: BoxOf): WindowPlan {
  const zoom = largestZoomWithin(b, MAX_OUTLINE_PX, MIN_DETECT_ZOOM, MAX_DETECT_ZOOM);
  const p = pixelBox(b, zoom);
  const nx = Math.max(1, Math.ceil((p.x1 - p.x0) / WINDOW_PX));
  const ny = Math.max(1, Math.ceil((p.y1 - p.y0) / WINDOW_PX));
  const w = (p.x1 - p.x0) / nx;
  const h = (p.y1 - p.y0) / ny;
  const windows: BoxOf[] = [];
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const nw = fromPixel(p.x0 + i * w, p.y0 + j * h, zoom);
      const se = fromPixel(p.x0 + (i + 1) * w, p.y0 + (j + 1) * h, zoom);
      windows.push({ north: nw.lat, west: nw.lng, south: se.lat, east: se.lng });
    }
  return { zoom, windows };
}
