// Pipe runs on a sheet (docs/plan-reading.md, "Irrigation"): the stroked paths of one pipe class
// (the line width and dash pattern of the legend's sample line), their length, and how they join
// into networks (a zone's laterals, fed by its valve).
import { within } from './boxes.ts';
import type { SheetBox, SheetPoint } from './types.ts';
import { type PaintedPath, polylineLength, polylines } from './vector-paths.ts';

export interface PipeClass {
  lineWidth: number;
  dashes: number[] | null;
}

/** The pipe class a legend row's sample line shows: its first open stroked path. */
export function sampleClass(paths: PaintedPath[], box: SheetBox): PipeClass | null {
  const p = paths.find((q) => q.kind === 'stroke' && !q.commands.includes('Z') && within(q.box, box, 1));
  return p ? { lineWidth: p.lineWidth, dashes: p.dashes } : null;
}

function sameDashes(a: number[] | null, b: number[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= Math.max(0.5, 0.15 * v));
}

/**
 * The open stroked paths of a class (closed ones are outlines, borders and symbols, not pipe), less
 * those inside `skip` boxes (the legend, symbols found on the sheet).
 */
export function pipesOf(paths: PaintedPath[], cls: PipeClass, skip: SheetBox[]): PaintedPath[] {
  return paths.filter(
    (p) =>
      p.kind === 'stroke' &&
      !p.commands.includes('Z') &&
      Math.abs(p.lineWidth - cls.lineWidth) <= Math.max(0.3, 0.15 * cls.lineWidth) &&
      sameDashes(p.dashes, cls.dashes) &&
      !skip.some((b) => within(p.box, b, 1)),
  );
}

export function pipeLength(pipes: PaintedPath[]): number {
  return pipes.reduce((n, p) => n + polylines(p).reduce((m, l) => m + polylineLength(l), 0), 0);
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** The shortest distance from a point to a polyline. */
export function distanceTo(p: SheetPoint, line: number[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 2; i < line.length; i += 2)
    best = Math.min(best, segmentDistance(p.x, p.y, line[i - 2], line[i - 1], line[i], line[i + 1]));
  return best;
}

/**
 * Polylines joined into networks: two join when an end of one lies within `tol` pixels of the
 * other (a tee joins a branch to the middle of a run).
 */
export function networks(pipes: PaintedPath[], tol = 3): number[][][] {
  const lines = pipes.flatMap(polylines);
  const parent = lines.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const ends = (l: number[]) => [
    { x: l[0], y: l[1] },
    { x: l[l.length - 2], y: l[l.length - 1] },
  ];
  for (let i = 0; i < lines.length; i++)
    for (let j = 0; j < lines.length; j++) {
      if (i === j || find(i) === find(j)) continue;
      if (ends(lines[i]).some((e) => distanceTo(e, lines[j]) <= tol)) parent[find(i)] = find(j);
    }
  const groups = new Map<number, number[][]>();
  for (const [i, l] of lines.entries()) {
    const g = groups.get(find(i));
    if (g) g.push(l);
    else groups.set(find(i), [l]);
  }
  return [...groups.values()];
}
