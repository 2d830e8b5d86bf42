// A measurement's totals (docs/measurement.md, "Totals"): square feet per surface with the holes
// taken out of the surface of the area they cut, linear feet per line category, counts per count
// category, each custom item's quantity, and the measurement's area (every area less its holes).
// A category whose quantity the office typed over is answered with the typed quantity
// (typed: true). Kept on the measurement at every save, so lists and jobs never read shapes.
import { rounded } from '#engines/geometry/index.ts';
import { areaHolding, areasOf } from './sits-in.ts';
import type { EditState, ShapeState } from './state.ts';
import { LABELS } from './vocabulary.ts';

export interface Totals {
  area_sqft: number;
  areas: Array<{ surface: string; label: string; count: number; area_sqft: number }>;
  lines: Array<{ category: string; label: string; count: number; linear_feet: number; typed: boolean }>;
  counts: Array<{ category: string; label: string; count: number; typed: boolean }>;
  painted_shapes: Array<{ category: string; label: string; count: number; quantity: number; unit: string }>;
  custom: Array<{ item: string; item_type: string; count: number; quantity: number; unit: string }>;
  /** Every phase a shape of the measurement has, sorted (the listing's options read it here, not from the shapes). */
  phases: string[];
}

type Sum = { count: number; sum: number; unit: string };

function add(map: Map<string, Sum>, key: string, quantity: number, unit: string, count = 1) {
  const s = map.get(key) ?? { count: 0, sum: 0, unit };
  s.count += count;
  s.sum += quantity;
  map.set(key, s);
}

const byKey = <T>(map: Map<string, Sum>, make: (key: string, s: Sum) => T) =>
  [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, s]) => make(k, s));

export function totalsOf(state: EditState): Totals {
  const surfaces = new Map<string, Sum>();
  const lines = new Map<string, Sum>();
  const counts = new Map<string, Sum>();
  const painted = new Map<string, Sum>();
  const custom = new Map<string, Sum>();
  const shapes = [...state.shapes.values()];
  const areaShapes = areasOf(shapes);
  const phases = new Set<string>();
  for (const s of shapes) {
    if (s.phase !== null) phases.add(s.phase);
    if (s.kind === 'area') {
      if (s.surface !== 'hole') add(surfaces, s.surface!, s.quantity, 'SF');
      else {
        const cut = areaHolding(areaShapes, s);
        // A hole outside every area cuts nothing.
        if (cut) add(surfaces, cut.surface!, -s.quantity, 'SF', 0);
      }
    } else if (s.kind === 'line') add(lines, s.category!, s.quantity, 'LF');
    else if (s.kind === 'count') add(counts, s.category!, 1, 'EA');
    else if (s.kind === 'painted_shape') add(painted, s.category!, s.quantity, s.unit);
    else add(custom, s.item!, s.quantity, s.unit);
  }
  for (const [category, quantity] of Object.entries(state.typed)) {
    const target = lines.has(category) ? lines : counts.has(category) ? counts : null;
    if (target) target.get(category)!.sum = quantity;
  }
  const areas = byKey(surfaces, (surface, s) => ({
    surface,
    label: LABELS[surface] ?? surface,
    count: s.count,
    area_sqft: rounded(s.sum),
  }));
  return {
    area_sqft: rounded([...surfaces.values()].reduce((t, s) => t + s.sum, 0)),
    areas,
    lines: byKey(lines, (category, s) => ({
      category,
      label: LABELS[category] ?? category,
      count: s.count,
      linear_feet: rounded(s.sum),
      typed: category in state.typed,
    })),
    counts: byKey(counts, (category, s) => ({
      category,
      label: LABELS[category] ?? category,
      count: category in state.typed ? s.sum : s.count,
      typed: category in state.typed,
    })),
    painted_shapes: byKey(painted, (category, s) => ({
      category,
      label: LABELS[category] ?? category,
      count: s.count,
      quantity: rounded(s.sum),
      unit: s.unit,
    })),
    custom: byKey(custom, (item, s) => ({
      item,
      item_type: state.items.get(item.toLowerCase())?.item_type ?? 'polygon',
      count: s.count,
      quantity: rounded(s.sum),
      unit: s.unit,
    })),
    phases: [...phases].sort(),
  };
}

/** What an estimate line can take (estimates' measurement_quantity): "area", "surface:main", "line:lines_white", "count:stalls", "item:Planters". */
export function quantityKeys(t: Totals): Map<string, { quantity: number; unit: string }> {
  const out = new Map<string, { quantity: number; unit: string }>();
  out.set('area', { quantity: t.area_sqft, unit: 'SF' });
  for (const a of t.areas) out.set(`surface:${a.surface}`, { quantity: a.area_sqft, unit: 'SF' });
  for (const l of t.lines) out.set(`line:${l.category}`, { quantity: l.linear_feet, unit: 'LF' });
  for (const c of t.counts) out.set(`count:${c.category}`, { quantity: c.count, unit: 'EA' });
  for (const p of t.painted_shapes) out.set(`painted:${p.category}`, { quantity: p.quantity, unit: p.unit });
  for (const c of t.custom) out.set(`item:${c.item}`, { quantity: c.quantity, unit: c.unit });
  return out;
}

export type { ShapeState };
