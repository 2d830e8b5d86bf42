// The irrigation takeoff from a plan (docs/plan-reading.md, "Irrigation"): heads and valves counted
// at the legend's symbols, pipe lengths per pipe class at the sheet's stated scale, and zones from
// valve callouts, each with the heads on its laterals and the laterals' length.
//
// Shapes follow the takeoff's irrigation quantities (spec: heads_and_valves, pipes, zones); ids
// and quantity sources are the API's to add.
import type { PlanDocument } from './document.ts';
import { findIrrigationLegend, type IrrigationLegend, type LegendRow } from './irrigation-legend.ts';
import { distanceTo, networks, pipeLength, pipesOf, sampleClass } from './irrigation-network.ts';
import { readValveCallouts } from './irrigation-zones.ts';
import { type SheetScale, sheetScale } from './scale.ts';
import { findPlants } from './symbols.ts';
import type { SheetBox, SheetPoint, SheetText } from './types.ts';
import { type PaintedPath, paintedPaths, polylineLength } from './vector-paths.ts';

export interface CountedItem {
  name: string;
  kind: 'head' | 'valve';
  dot_count: number;
  plan_quantity: number | null;
  pages: number[];
  dots: (SheetPoint & { page: number })[];
}

export interface PipeRun {
  name: string;
  /** Null when a sheet with this pipe states no scale (or the legend shows no sample line). */
  linear_feet: number | null;
  pages: number[];
}

export interface Zone {
  zone: string;
  valve_size: string | null;
  gpm: number | null;
  heads: number;
  lateral_lf: number | null;
  page: number;
  /** The valve's dot. */
  x: number;
  y: number;
}

export interface IrrigationFindings {
  legend: IrrigationLegend;
  scales: { page: number; scale: SheetScale | null }[];
  heads_and_valves: CountedItem[];
  pipes: PipeRun[];
  zones: Zone[];
  notes: string[];
}

const PX_PER_INCH = 144;
const round1 = (n: number) => Math.round(n * 10) / 10;

export function readIrrigation(
  plan: PlanDocument,
  texts: SheetText[],
  paths: Map<number, PaintedPath[]> = new Map(),
): IrrigationFindings {
  const notes: string[] = [];
  const legend = findIrrigationLegend(texts);
  const scales = texts.map((t) => ({ page: t.page, scale: sheetScale(t) }));
  if (legend.status === 'not_found' || legend.page === null || legend.box === null) {
    return { legend, scales, heads_and_valves: [], pipes: [], zones: [], notes: ['No irrigation legend found.'] };
  }
  const legendPage = legend.page;
  const legendBox = legend.box;
  const pathsOf = (n: number) => {
    let p = paths.get(n);
    if (!p) {
      p = paintedPaths(plan, n);
      paths.set(n, p);
    }
    return p;
  };
  const vectorPages = texts.filter((t) => t.hasTextLayer).map((t) => t.page);

  // Heads and valves: one dot per symbol, per legend row.
  const symbolBoxes = new Map<number, SheetBox[]>();
  const items: (CountedItem & { size: { width: number; height: number } | null })[] = [];
  for (const row of legend.rows.filter(
    (r): r is LegendRow & { kind: 'head' | 'valve' } => r.kind === 'head' || r.kind === 'valve',
  )) {
    const item: (typeof items)[number] = {
      name: row.name,
      kind: row.kind,
      dot_count: 0,
      plan_quantity: row.plan_quantity,
      pages: [],
      dots: [],
      size: null,
    };
    for (const page of vectorPages) {
      const found = findPlants(
        plan,
        page,
        { page: legendPage, box: row.symbol_box },
        {
          exclude: page === legendPage ? [legendBox] : [],
          paths,
        },
      );
      if (found.method !== 'vector' || found.dots.length === 0) continue;
      item.size = found.size;
      item.pages.push(page);
      for (const d of found.dots) {
        item.dots.push({ ...d, page });
        const w = found.size?.width ?? 0;
        const h = found.size?.height ?? 0;
        const boxes = symbolBoxes.get(page) ?? [];
        boxes.push({ x: d.x - w / 2, y: d.y - h / 2, width: w, height: h });
        symbolBoxes.set(page, boxes);
      }
    }
    item.dot_count = item.dots.length;
    if (item.plan_quantity !== null && item.plan_quantity !== item.dot_count)
      notes.push(`${row.name}: ${item.dot_count} symbols found, the legend says ${item.plan_quantity}.`);
    items.push(item);
  }

  // Pipes: each legend line sample's class, measured on every sheet.
  const pipes: PipeRun[] = [];
  const pipeRows = legend.rows.filter((r) => r.kind === 'pipe');
  const classes = pipeRows.map((r) => ({ row: r, cls: sampleClass(pathsOf(legendPage), r.symbol_box) }));
  for (const { row, cls } of classes) {
    if (!cls) {
      pipes.push({ name: row.name, linear_feet: null, pages: [] });
      notes.push(`${row.name}: no sample line in the legend's symbol cell, so its length is not measured.`);
      continue;
    }
    let feet: number | null = 0;
    const pages: number[] = [];
    for (const page of vectorPages) {
      const skip = [...(symbolBoxes.get(page) ?? []), ...(page === legendPage ? [legendBox] : [])];
      const px = pipeLength(pipesOf(pathsOf(page), cls, skip));
      if (px === 0) continue;
      pages.push(page);
      const scale = scales.find((s) => s.page === page)?.scale ?? null;
      if (!scale) {
        notes.push(`${row.name}: sheet ${page} states no scale, so its length is not measured.`);
        feet = null;
      } else if (feet !== null) feet += (px / PX_PER_INCH) * scale.feetPerInch;
    }
    pipes.push({ name: row.name, linear_feet: feet === null ? null : round1(feet), pages });
  }

  // Zones: a valve callout by each valve; the lateral network the valve feeds; the heads on it.
  const zones: Zone[] = [];
  const lateral =
    classes.find((c) => c.cls && /\bLATERAL\b/i.test(c.row.name)) ??
    classes.filter((c) => c.cls).sort((a, b) => (a.cls?.lineWidth ?? 0) - (b.cls?.lineWidth ?? 0))[0];
  const valves = items.filter((i) => i.kind === 'valve');
  const heads = items.filter((i) => i.kind === 'head');
  for (const text of texts.filter((t) => vectorPages.includes(t.page))) {
    const callouts = readValveCallouts(text);
    if (callouts.length === 0) continue;
    const valveDots = valves.flatMap((v) =>
      v.dots.filter((d) => d.page === text.page).map((d) => ({ d, size: v.size })),
    );
    const skip = [...(symbolBoxes.get(text.page) ?? []), ...(text.page === legendPage ? [legendBox] : [])];
    const nets = lateral?.cls ? networks(pipesOf(pathsOf(text.page), lateral.cls, skip)) : [];
    const scale = scales.find((s) => s.page === text.page)?.scale ?? null;
    for (const c of callouts) {
      // The valve nearest the callout, within 2 inches of paper.
      const near = valveDots
        .map((v) => ({ ...v, dist: Math.hypot(v.d.x - c.x, v.d.y - c.y) }))
        .sort((a, b) => a.dist - b.dist)[0];
      if (!near || near.dist > 2 * PX_PER_INCH) {
        notes.push(`Zone ${c.zone} (sheet ${text.page}): no valve symbol near its callout.`);
        continue;
      }
      const reach = Math.max(near.size?.width ?? 0, near.size?.height ?? 0) / 2 + 3;
      const fed = nets.filter((n) => n.some((l) => distanceTo(near.d, l) <= reach));
      const lengthPx = fed.flat().reduce((m, l) => m + polylineLength(l), 0);
      let headCount = 0;
      for (const h of heads) {
        const r = Math.max(h.size?.width ?? 0, h.size?.height ?? 0) / 2 + 3;
        headCount += h.dots.filter(
          (d) => d.page === text.page && fed.some((n) => n.some((l) => distanceTo(d, l) <= r)),
        ).length;
      }
      zones.push({
        zone: c.zone,
        valve_size: c.valve_size,
        gpm: c.gpm,
        heads: headCount,
        lateral_lf: scale ? round1((lengthPx / PX_PER_INCH) * scale.feetPerInch) : null,
        page: text.page,
        x: near.d.x,
        y: near.d.y,
      });
    }
  }
  const headsAndValves = items.map(({ size: _size, ...rest }) => rest);
  return { legend, scales, heads_and_valves: headsAndValves, pipes, zones, notes };
}
