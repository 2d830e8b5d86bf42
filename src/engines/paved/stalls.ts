// Parking stalls from the painted lines (docs/measurement-detector.md, "Stalls"): stall lines are
// straight, STALL_LINE_M long, parallel, side by side (their centres in a row across them) and
// equally spaced by a stall's width. A row of N such lines is N − 1 stalls; each stall is reported
// at the middle of its two lines. Pure geometry on the traced lines, no pixels.
import type { FoundLine, FoundStall, PixelPoint } from './types.ts';

/** Length of a stall line, m (a stall is 4.5–5.5 m deep; a little slack for traced ends). */
const STALL_LINE_M: [number, number] = [3.5, 7];
/** Spacing of neighbouring stall lines, m: US stalls are 2.4–3.0 m wide (8–10 ft), with slack. */
const SPACING_M: [number, number] = [2.2, 3.4];
/** Parallel within this many degrees. */
const MAX_ANGLE_DEG = 6;
/** Lines of one row are side by side: their centres are at most this far apart along the lines, m. */
const MAX_SHIFT_M = 1.2;
/** Equally spaced: each gap within this share of the row's median gap. */
const SPACING_TOLERANCE = 0.2;

interface Candidate {
  centre: PixelPoint;
  /** Unit direction, pointing to positive x (or down when vertical). */
  dir: PixelPoint;
}

export function inferStalls(lines: FoundLine[], mpp: number): FoundStall[] {
  const cands: Candidate[] = [];
  for (const l of lines) {
    if (l.points.length !== 2) continue;
    const [a, b] = l.points;
    let dx = b[0] - a[0];
    let dy = b[1] - a[1];
    const len = Math.hypot(dx, dy);
    if (len * mpp < STALL_LINE_M[0] || len * mpp > STALL_LINE_M[1]) continue;
    if (dx < 0 || (dx === 0 && dy < 0)) {
      dx = -dx;
      dy = -dy;
    }
    cands.push({ centre: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], dir: [dx / len, dy / len] });
  }
  // Neighbours: parallel, side by side, one stall's width apart. Union them into rows.
  const parent = cands.map((_, i) => i);
  const root = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r];
    parent[i] = r;
    return r;
  };
  const cosMax = Math.cos((MAX_ANGLE_DEG * Math.PI) / 180);
  for (let i = 0; i < cands.length; i++)
    for (let j = i + 1; j < cands.length; j++) {
      const p = cands[i];
      const q = cands[j];
      if (Math.abs(p.dir[0] * q.dir[0] + p.dir[1] * q.dir[1]) < cosMax) continue;
      const dx = (q.centre[0] - p.centre[0]) * mpp;
      const dy = (q.centre[1] - p.centre[1]) * mpp;
      const along = Math.abs(dx * p.dir[0] + dy * p.dir[1]);
      const across = Math.abs(-dx * p.dir[1] + dy * p.dir[0]);
      if (along <= MAX_SHIFT_M && across >= SPACING_M[0] && across <= SPACING_M[1]) parent[root(i)] = root(j);
    }
  const rows = new Map<number, Candidate[]>();
  cands.forEach((c, i) => {
    const r = root(i);
    rows.set(r, [...(rows.get(r) ?? []), c]);
  });
  const stalls: FoundStall[] = [];
  for (const row of rows.values()) {
    if (row.length < 2) continue;
    // Order the row across its lines and split it where a gap is not one stall's width.
    const n: PixelPoint = [-row[0].dir[1], row[0].dir[0]];
    row.sort((p, q) => p.centre[0] * n[0] + p.centre[1] * n[1] - (q.centre[0] * n[0] + q.centre[1] * n[1]));
    const gaps = row.slice(1).map((q, k) => Math.hypot(q.centre[0] - row[k].centre[0], q.centre[1] - row[k].centre[1]));
    const median = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)];
    gaps.forEach((g, k) => {
      const inRange = g * mpp >= SPACING_M[0] && g * mpp <= SPACING_M[1];
      if (!inRange || Math.abs(g - median) > SPACING_TOLERANCE * median) return;
      const a = row[k].centre;
      const b = row[k + 1].centre;
      stalls.push({ point: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] });
    });
  }
  return stalls;
}
