// A sheet's vector drawing as a list of painted paths in sheet pixels (docs/plan-reading.md,
// "Plant symbols"). MuPDF runs the page through a device whose fillPath and strokePath we supply;
// each path is walked then (it is only valid during the call) and its points put through the
// call's matrix, which already holds the page's rotation and our 144-dpi scale.
import * as mupdf from 'mupdf';
import { type PlanDocument, SHEET_SCALE } from './document.ts';
import type { SheetBox } from './types.ts';

export interface PaintedPath {
  kind: 'fill' | 'stroke';
  /** The path's commands in order: M move, L line, C curve, Z close. */
  commands: string;
  /** Every point the commands name (curve control points too), x and y interleaved, sheet pixels. */
  points: number[];
  box: SheetBox;
}

export function paintedPaths(plan: PlanDocument, page: number): PaintedPath[] {
  const out: PaintedPath[] = [];
  const take = (kind: PaintedPath['kind'], path: mupdf.Path, m: mupdf.Matrix) => {
    let commands = '';
    const points: number[] = [];
    const put = (x: number, y: number) => points.push(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
    path.walk({
      moveTo(x, y) {
        commands += 'M';
        put(x, y);
      },
      lineTo(x, y) {
        commands += 'L';
        put(x, y);
      },
      curveTo(x1, y1, x2, y2, x3, y3) {
        commands += 'C';
        put(x1, y1);
        put(x2, y2);
        put(x3, y3);
      },
      closePath() {
        commands += 'Z';
      },
    });
    if (points.length === 0) return;
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < points.length; i += 2) {
      x0 = Math.min(x0, points[i]);
      x1 = Math.max(x1, points[i]);
      y0 = Math.min(y0, points[i + 1]);
      y1 = Math.max(y1, points[i + 1]);
    }
    out.push({ kind, commands, points, box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } });
  };
  const device = new mupdf.Device({
    fillPath: (path, _evenOdd, ctm) => take('fill', path, ctm),
    strokePath: (path, _stroke, ctm) => take('stroke', path, ctm),
  });
  try {
    plan.page(page).run(device, mupdf.Matrix.scale(SHEET_SCALE, SHEET_SCALE));
  } finally {
    device.close();
    device.destroy();
  }
  return out;
}
