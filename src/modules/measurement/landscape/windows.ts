// How a detect run reads an outline's imagery: at the largest zoom up to 20 at which the outline's
// box is at most MAX_OUTLINE_PX on its longer side (never below zoom 17, where a pixel is about
// a metre and shrubs vanish), in windows of at most WINDOW_PX a side, each read with imagery's
// margin around it so a crown on a window's edge is seen whole. What a window finds is kept only
// inside its core, so the windows tile the outline without overlap. Pure.
import { fromPixel, toPixel } from '#platform/imagery/web-mercator.ts';
import type { BoxOf } from './outline.ts';

export const MAX_DETECT_ZOOM = 20;
export const MIN_DETECT_ZOOM = 17;
export const MAX_OUTLINE_PX = 8_192;
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

export function detectZoomOf(b: BoxOf): number {
  for (let z = MAX_DETECT_ZOOM; z > MIN_DETECT_ZOOM; z--) {
    const p = pixelBox(b, z);
    if (Math.max(p.x1 - p.x0, p.y1 - p.y0) <= MAX_OUTLINE_PX) return z;
  }
  return MIN_DETECT_ZOOM;
}

export function windowsOf(b: BoxOf): WindowPlan {
  const zoom = detectZoomOf(b);
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
