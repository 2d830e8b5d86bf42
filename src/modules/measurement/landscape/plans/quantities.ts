// A plan takeoff's quantities (document 3, "Plan takeoff"): per plant its quantity and where it
// came from, the plant total, and the irrigation a run applied. Pure: the takeoff's plants and
// dots in, the stored quantities out (kept on the takeoff row at every save, like the aerial
// ones, so a read does not walk the dots).
//
// The rule (document 3: "A plant's quantity is the amount its callouts state, else one per dot, or
// a typed total"): a plant with callout dots counts what they state (a dot's own quantity, when a
// user typed one, in place of its callout's count); else a plant with plant dots counts one per
// dot (or the quantity typed on the dot); else the total typed in the plan's schedule. A plant
// with none of them counts 0, from dots.
export type DotKind = 'plant' | 'callout' | 'callout_tag' | 'other';
export const DOT_KINDS: readonly DotKind[] = ['plant', 'callout', 'callout_tag', 'other'];

export interface PlantRow {
  id: number;
  code: string;
  name: string | null;
  common_name: string | null;
  kind: 'plant' | 'callout' | 'callout_tag' | 'other';
  unit: string;
  typed_quantity: number | null;
}

export interface DotRow {
  plant_id: number | null;
  /** The dot's kind (stored in the item's class). */
  class: string;
  page: number | null;
  quantity: number | null;
  callout_quantity: number | null;
}

export interface StoredIrrigation {
  heads_and_valves: {
    id: number;
    name: string;
    kind: 'head' | 'valve';
    unit: string;
    quantity: number;
    quantity_source: 'dots' | 'typed';
    dot_count: number;
    pages: number[];
    plan_quantity: number | null;
  }[];
  pipes: { id: number; name: string; linear_feet: number | null }[];
  zones: { zone: string; valve_size: string | null; gpm: number | null; heads: number; lateral_lf: number | null }[];
}

export interface StoredPlanQuantities {
  plants: {
    id: number;
    name: string | null;
    code: string;
    common_name: string | null;
    kind: PlantRow['kind'];
    unit: string;
    quantity: number;
    quantity_source: 'callouts' | 'dots' | 'typed';
    dot_count: number;
    pages: number[];
  }[];
  plant_total: number;
  areas: never[];
  lines: never[];
  other_counts: never[];
  irrigation: StoredIrrigation;
}

export const NO_IRRIGATION: StoredIrrigation = { heads_and_valves: [], pipes: [], zones: [] };

/** Quantities add up to a tenth at most (a typed dot quantity may be fractional: 2.5 flats). */
const tenth = (n: number) => Math.round(n * 10) / 10;

export function planQuantities(
  plants: readonly PlantRow[],
  dots: Iterable<DotRow>,
  irrigation: StoredIrrigation | null,
): StoredPlanQuantities {
  const per = new Map<
    number,
    { callouts: number; calloutDots: number; plantSum: number; plantDots: number; pages: Set<number> }
  >();
  for (const p of plants) per.set(p.id, { callouts: 0, calloutDots: 0, plantSum: 0, plantDots: 0, pages: new Set() });
  for (const d of dots) {
    const acc = d.plant_id === null ? undefined : per.get(d.plant_id);
    if (!acc) continue;
    if (d.page !== null) acc.pages.add(d.page);
    if (d.class === 'callout') {
      acc.calloutDots++;
      acc.callouts += d.quantity ?? d.callout_quantity ?? 0;
    } else if (d.class === 'plant') {
      acc.plantDots++;
      acc.plantSum += d.quantity ?? 1;
    }
  }
  const out = plants.map((p) => {
    const acc = per.get(p.id)!;
    const [quantity, quantity_source] =
      acc.calloutDots > 0
        ? ([acc.callouts, 'callouts'] as const)
        : acc.plantDots > 0
          ? ([acc.plantSum, 'dots'] as const)
          : p.typed_quantity !== null
            ? ([p.typed_quantity, 'typed'] as const)
            : ([0, 'dots'] as const);
    return {
      id: p.id,
      name: p.name,
      code: p.code,
      common_name: p.common_name,
      kind: p.kind,
      unit: p.unit,
      quantity: tenth(quantity),
      quantity_source,
      dot_count: acc.plantDots,
      pages: [...acc.pages].sort((a, b) => a - b),
    };
  });
  return {
    plants: out,
    plant_total: tenth(out.reduce((s, p) => s + p.quantity, 0)),
    areas: [],
    lines: [],
    other_counts: [],
    irrigation: irrigation ?? NO_IRRIGATION,
  };
}
