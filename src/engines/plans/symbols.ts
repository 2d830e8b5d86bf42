// Finding plant symbols (docs/plan-reading.md, "Plant symbols"): one dot per instance of a sample
// symbol, the sample being a box on a sheet (a row's cell in the schedule's symbol column, or a
// symbol the user picks on the plan).
//
// Vector sheets: the symbol is the paths drawn wholly inside the sample box. An instance is the
// same paths again, moved: same paint (fill or stroke), same commands, every point within a
// tolerance of the sample's points plus one common offset. CAD programs draw a symbol as a block,
// so its paths repeat exactly; symbols drawn rotated, mirrored or scaled are not found (limits).
// Sheets with no matching paths that paint an image (scans) are read from pixels instead
// (raster-symbols.ts).
import { centre, centreInside, union, within } from './boxes.ts';
import type { PlanDocument } from './document.ts';
import { findRasterSymbols, type Grey } from './raster-symbols.ts';
import { type PaintedPath, paintedPaths } from './vector-paths.ts';
import type { SheetBox, SheetPoint } from './types.ts';

export interface SymbolSample {
  page: number;
  box: SheetBox;
}

export interface PlantFinding {
  dots: SheetPoint[];
  /** vector: matched paths; raster: matched pixels (a scan); none: nothing to match against. */
  method: 'vector' | 'raster' | 'none';
  /** What limited the answer, when something did (a scan, an empty sample). */
  note: string | null;
  /** The sample symbol's size (vector: its paths' box), so a dot's symbol box is dot ± size / 2. */
  size: { width: number; height: number } | null;
}

export interface FindOptions {
  /** Instances whose centre is in one of these boxes on the page are not plants (the schedule). */
  exclude?: SheetBox[];
  /** Sheets' drawings already walked (paintedPaths), by page, to walk each sheet once. */
  paths?: Map<number, PaintedPath[]>;
  /** Sheets already rendered in grey for raster matching, by page (scans only; large: drop after use). */
  greys?: Map<number, Grey>;
}

export function findPlants(
  plan: PlanDocument,
  page: number,
  sample: SymbolSample,
  options: FindOptions = {},
): PlantFinding {
  const pathsOf = (n: number) => {
    let p = options.paths?.get(n);
    if (!p) {
      p = paintedPaths(plan, n);
      options.paths?.set(n, p);
    }
    return p;
  };
  const keep = (dots: SheetPoint[]) =>
    dots.filter((d) => !(options.exclude ?? []).some((b) => centreInside({ ...d, width: 0, height: 0 }, b)));
  const template = pathsOf(sample.page).filter((p) => within(p.box, sample.box, 1));
  const target = pathsOf(page);
  const size =
    template.length > 0 ? (({ width, height }) => ({ width, height }))(union(template.map((p) => p.box))) : null;
  if (template.length > 0 && target.length > 0) {
    const dots = keep(matchVector(template, target));
    if (dots.length > 0) return { dots, method: 'vector', note: null, size };
  }
  const raster = findRasterSymbols(plan, page, sample, options.greys);
  if (raster) return { dots: keep(raster.dots), method: 'raster', note: raster.note, size: raster.size };
  return {
    size,
    dots: [],
    method: 'none',
    note:
      template.length === 0
        ? 'No drawing inside the sample box to match.'
        : 'No instance of the sample symbol on this sheet.',
  };
}

/** Tolerance for a point, pixels: 1.5 px or 4% of the symbol's size. */
function tolerance(box: SheetBox): number {
  return Math.max(1.5, 0.04 * Math.max(box.width, box.height));
}

function samePoints(a: number[], b: number[], dx: number, dy: number, tol: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 2)
    if (Math.abs(a[i] + dx - b[i]) > tol || Math.abs(a[i + 1] + dy - b[i + 1]) > tol) return false;
  return true;
}

function matchVector(template: PaintedPath[], target: PaintedPath[]): SheetPoint[] {
  const key = (p: PaintedPath) => `${p.kind}:${p.commands}`;
  const all = template.reduce((b, p) => (p.box.width * p.box.height > b.box.width * b.box.height ? p : b));
  const symbolBox = {
    x: Math.min(...template.map((p) => p.box.x)),
    y: Math.min(...template.map((p) => p.box.y)),
    width: 0,
    height: 0,
  };
  symbolBox.width = Math.max(...template.map((p) => p.box.x + p.box.width)) - symbolBox.x;
  symbolBox.height = Math.max(...template.map((p) => p.box.y + p.box.height)) - symbolBox.y;
  const tol = tolerance(symbolBox);
  // Target paths by kind and commands, so each template path is compared with its own kind only,
  // and by where their first point falls on a grid, so a part is looked for only near where the
  // offset puts it (a plan with thousands of symbols stays linear).
  const byKey = new Map<string, PaintedPath[]>();
  const cell = Math.max(8, 4 * tol);
  const at = (k: string, x: number, y: number) => `${k}|${Math.floor(x / cell)}|${Math.floor(y / cell)}`;
  const grid = new Map<string, PaintedPath[]>();
  for (const p of target) {
    const same = byKey.get(key(p));
    if (same) same.push(p);
    else byKey.set(key(p), [p]);
    const g = at(key(p), p.points[0], p.points[1]);
    const list = grid.get(g);
    if (list) list.push(p);
    else grid.set(g, [p]);
  }
  const nearby = (k: string, x: number, y: number): PaintedPath[] => {
    const out: PaintedPath[] = [];
    const cx = Math.floor(x / cell);
    const cy = Math.floor(y / cell);
    for (let i = -1; i <= 1; i++)
      for (let j = -1; j <= 1; j++) out.push(...(grid.get(`${k}|${cx + i}|${cy + j}`) ?? []));
    return out;
  };
  const used = new Set<PaintedPath>();
  const dots: SheetPoint[] = [];
  const c0 = centre(symbolBox);
  for (const cand of byKey.get(key(all)) ?? []) {
    if (used.has(cand)) continue;
    const dx = cand.points[0] - all.points[0];
    const dy = cand.points[1] - all.points[1];
    if (!samePoints(all.points, cand.points, dx, dy, tol)) continue;
    const parts: PaintedPath[] = [cand];
    let whole = true;
    for (const t of template) {
      if (t === all) continue;
      const hit = nearby(key(t), t.points[0] + dx, t.points[1] + dy).find(
        (p) => !used.has(p) && !parts.includes(p) && samePoints(t.points, p.points, dx, dy, tol),
      );
      if (!hit) {
        whole = false;
        break;
      }
      parts.push(hit);
    }
    if (!whole) continue;
    for (const p of parts) used.add(p);
    dots.push({ x: Math.round((c0.x + dx) * 10) / 10, y: Math.round((c0.y + dy) * 10) / 10 });
  }
  return dots;
}
