// The words and judgements around the findings: where on the image, the image's quality and
// view, the confidence, and the limitations the answer states (docs/condition.md, "The built-in distress detector").
import type { Region } from './context.ts';
import type { PavementType, Quality, View } from './types.ts';

const ROWS = ['north', 'centre', 'south'] as const;
const COLS = ['west', 'centre', 'east'] as const;

/** Compass words for where regions lie, north at the top of the image. */
export function whereText(regions: Region[], width: number, height: number): string {
  if (regions.length === 0) return 'nowhere';
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  let wsum = 0;
  let cx = 0;
  let cy = 0;
  for (const r of regions) {
    x0 = Math.min(x0, r.x0);
    y0 = Math.min(y0, r.y0);
    x1 = Math.max(x1, r.x1);
    y1 = Math.max(y1, r.y1);
    const w = Math.max(1, r.amount);
    wsum += w;
    cx += r.cx * w;
    cy += r.cy * w;
  }
  cx /= wsum;
  cy /= wsum;
  const row = ROWS[Math.min(2, Math.floor((cy / height) * 3))];
  const col = COLS[Math.min(2, Math.floor((cx / width) * 3))];
  const wide = (x1 - x0) / width > 0.6;
  const tall = (y1 - y0) / height > 0.6;
  if (wide && tall) return 'throughout';
  if (wide) return row === 'centre' ? 'across the centre' : `across the ${row}`;
  if (tall) return col === 'centre' ? 'down the centre' : `along the ${col} side`;
  if (row === 'centre' && col === 'centre') return 'in the centre';
  if (row === 'centre') return `${col} side`;
  if (col === 'centre') return `${row} side`;
  return `${row}-${col} quarter`;
}

/**
 * Image quality: poor when too small to see cracks (under 160 px), badly exposed (median grey
 * outside 30–230) or blurred (variance of the Laplacian under 15); fair under 400 px or a
 * Laplacian variance under 60; otherwise good.
 */
export function judgeQuality(minSide: number, median: number, laplacianVar: number): Quality {
  if (minSide < 160 || median < 30 || median > 230 || laplacianVar < 15) return 'poor';
  if (minSide < 400 || laplacianVar < 60) return 'fair';
  return 'good';
}

/** Aerial when the scale is imagery's (3 cm per pixel or coarser); other when no pavement; else ground. */
export function judgeView(pavementFound: boolean, metersPerPixel: number | undefined): View {
  if (!pavementFound) return 'other';
  return metersPerPixel !== undefined && metersPerPixel >= 0.03 ? 'aerial' : 'ground';
}

/**
 * Confidence 0–1: 0.85 for a good image, 0.65 fair, 0.4 poor; times min(1, 0.5 + visible
 * pavement share), times 0.85 when the scale was assumed, times 0.8 for concrete (rated with
 * asphalt distress names), clamped to 0.05–0.95.
 */
export function confidence(quality: Quality, visiblePct: number, scaleAssumed: boolean, type: PavementType): number {
  let c = quality === 'good' ? 0.85 : quality === 'fair' ? 0.65 : 0.4;
  c *= Math.min(1, 0.5 + visiblePct / 100);
  if (scaleAssumed) c *= 0.85;
  if (type === 'concrete') c *= 0.8;
  return Math.round(Math.max(0.05, Math.min(0.95, c)) * 100) / 100;
}
