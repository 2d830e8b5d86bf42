// A sheet's vector drawing as a list of painted paths in sheet pixels (docs/plan-reading.md,
// "Plant symbols"). MuPDF runs the page through a device whose fillPath and strokePath we supply;
// each path is walked then (it is only valid during the call) and its points put through the
// call's matrix, which already holds the page's rotation and our 144-dpi scale.
import type * as Mupdf from 'mupdf';
import { mupdf } from './mupdf.ts';
import { type PlanDocument, SHEET_SCALE } from './document.ts';
import type { SheetBox } from './types.ts';

export interface PaintedPath {
  kind: 'fill' | 'stroke';
  /** The path's commands in order: M move, L line, C curve, Z close. */
  commands: string;
  /** Every point the commands name (curve control points too), x and y interleaved, sheet pixels. */
  points: number[];
  box: SheetBox;
  /** Stroked paths: the line width in sheet pixels; 0 for fills. */
  lineWidth: number;
  /** Stroked paths: the dash pattern in sheet pixels, null when solid. */
  dashes: number[] | null;
}

export function paintedPaths(plan: PlanDocument, page: number): PaintedPath[] {
  const out: PaintedPath[] = [];
  const take = (kind: PaintedPath['kind'], path: Mupdf.Path, m: Mupdf.Matrix, stroke?: Mupdf.StrokeState) => {
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
    // Widths and dashes are in the path's own space; the matrix's scale brings them to pixels.
    const scale = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
    const dashes = stroke?.getDashes() ?? null;
    out.push({
      kind,
      commands,
      points,
      box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
      lineWidth: stroke ? stroke.getLineWidth() * scale : 0,
      dashes: dashes && dashes.length > 0 ? dashes.map((d) => d * scale) : null,
    });
  };
  const device = new (mupdf().Device)({
    fillPath: (path, _evenOdd, ctm) => take('fill', path, ctm),
    strokePath: (path, stroke, ctm) => take('stroke', path, ctm, stroke),
  });
  try {
    plan.page(page).run(device, mupdf().Matrix.scale(SHEET_SCALE, SHEET_SCALE));
  } finally {
    device.close();
    device.destroy();
  }
  return out;
}

/** A path's polylines (one per subpath), curves flattened to their end points and controls. */
export function polylines(p: PaintedPath): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  let k = 0;
  for (const c of p.commands) {
    if (c === 'M') {
      if (cur.length >= 4) out.push(cur);
      cur = [p.points[k], p.points[k + 1]];
      k += 2;
    } else if (c === 'L') {
      cur.push(p.points[k], p.points[k + 1]);
      k += 2;
    } else if (c === 'C') {
      // Through the controls: long enough for lengths of gently curved pipe runs.
      cur.push(p.points[k], p.points[k + 1], p.points[k + 2], p.points[k + 3], p.points[k + 4], p.points[k + 5]);
      k += 6;
    } else if (c === 'Z' && cur.length >= 2) cur.push(cur[0], cur[1]);
  }
  if (cur.length >= 4) out.push(cur);
  return out;
}

export function polylineLength(line: number[]): number {
  let n = 0;
  for (let i = 2; i < line.length; i += 2) n += Math.hypot(line[i] - line[i - 2], line[i + 1] - line[i - 1]);
  return n;
}
