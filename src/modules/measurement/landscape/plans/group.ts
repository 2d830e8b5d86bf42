// group-plants (docs/landscape.md, "Plan runs"): a plant's dots on a sheet that lie close together
// (chained: each within `withinPx` of another of the group) become one dot at their centre that
// counts for all of them, as a mass planting is counted on a plan (one callout or tag for a bed of
// groundcover). The plant's total does not change; its dot_count falls. Pure.
import type { LandscapeItem } from '#db/tables.ts';

/** Half an inch of paper at 144 dpi. */
export const DEFAULT_GROUP_PX = 72;

export interface DotGroup {
  plantId: number;
  page: number;
  x: number;
  y: number;
  /** What the members counted for together (each its typed quantity, else one). */
  quantity: number;
  /** The grouped dots' ids. */
  members: number[];
}

type Dot = Pick<LandscapeItem, 'id' | 'plant_id' | 'page' | 'x' | 'y' | 'quantity'>;

export function groupDots(dots: readonly Dot[], withinPx: number): DotGroup[] {
  const sets = new Map<string, Dot[]>();
  for (const d of dots) {
    if (d.plant_id === null || d.page === null || d.x === null || d.y === null) continue;
    const k = `${d.plant_id}:${d.page}`;
    const list = sets.get(k) ?? [];
    list.push(d);
    sets.set(k, list);
  }
  const out: DotGroup[] = [];
  const limit = withinPx * withinPx;
  for (const list of sets.values()) {
    // Union-find over the pairs within reach: a few hundred dots a plant and sheet at most.
    const parent = list.map((_, i) => i);
    const root = (i: number): number => {
      while (parent[i] !== i) {
        parent[i] = parent[parent[i]!]!;
        i = parent[i]!;
      }
      return i;
    };
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const dx = list[i]!.x! - list[j]!.x!;
        const dy = list[i]!.y! - list[j]!.y!;
        if (dx * dx + dy * dy <= limit) parent[root(i)] = root(j);
      }
    const byRoot = new Map<number, Dot[]>();
    for (let i = 0; i < list.length; i++) {
      const r = root(i);
      byRoot.set(r, [...(byRoot.get(r) ?? []), list[i]!]);
    }
    for (const members of byRoot.values()) {
      if (members.length < 2) continue;
      out.push({
        plantId: members[0]!.plant_id!,
        page: members[0]!.page!,
        x: members.reduce((s, m) => s + m.x!, 0) / members.length,
        y: members.reduce((s, m) => s + m.y!, 0) / members.length,
        quantity: members.reduce((s, m) => s + (m.quantity ?? 1), 0),
        members: members.map((m) => m.id).sort((a, b) => a - b),
      });
    }
  }
  return out.sort((a, b) => a.members[0]! - b.members[0]!);
}
