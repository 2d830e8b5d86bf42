// A landscape takeoff's quantities (document 3, "Landscape takeoff"): areas per class {class,
// label, count, area_sqft}, objects per class {class, label, count}, the total area, tree_count
// (objects of a class with tree true) and object_count. Kept in square feet on the takeoff row at
// every save; a read turns area values into the asked unit (area_sqft stays square feet). Pure.
import { type AreaUnit, areaIn, rounded } from '#engines/geometry/index.ts';
import { AREA_CLASSES, isTree, labelOf, OBJECT_CLASSES } from './classes.ts';

export interface StoredQuantities {
  areas: { class: string; count: number; area_sqft: number }[];
  objects: { class: string; count: number }[];
}

/** What a save counts: the takeoff's items' class, kind and area. */
export interface Counted {
  kind: 'area' | 'object' | 'dot';
  class: string;
  area_sqft: number | null;
}

const order = (list: readonly { id: string }[]) => new Map(list.map((c, i) => [c.id, i]));
const AREA_ORDER = order(AREA_CLASSES);
const OBJECT_ORDER = order(OBJECT_CLASSES);
const byOrder = (o: Map<string, number>) => (a: { class: string }, b: { class: string }) =>
  (o.get(a.class) ?? 1e9) - (o.get(b.class) ?? 1e9) || a.class.localeCompare(b.class);

export function storedQuantities(items: Iterable<Counted>): StoredQuantities {
  const areas = new Map<string, { class: string; count: number; area_sqft: number }>();
  const objects = new Map<string, { class: string; count: number }>();
  for (const it of items) {
    if (it.kind === 'area') {
      const a = areas.get(it.class) ?? { class: it.class, count: 0, area_sqft: 0 };
      a.count++;
      a.area_sqft += it.area_sqft ?? 0;
      areas.set(it.class, a);
    } else if (it.kind === 'object') {
      const o = objects.get(it.class) ?? { class: it.class, count: 0 };
      o.count++;
      objects.set(it.class, o);
    }
  }
  return {
    areas: [...areas.values()].sort(byOrder(AREA_ORDER)),
    objects: [...objects.values()].sort(byOrder(OBJECT_ORDER)),
  };
}

export function quantitiesObject(q: StoredQuantities, unit: AreaUnit) {
  const total = q.areas.reduce((s, a) => s + a.area_sqft, 0);
  const treeCount = q.objects.filter((o) => isTree(o.class)).reduce((s, o) => s + o.count, 0);
  return {
    areas: q.areas.map((a) => ({
      class: a.class,
      label: labelOf(a.class),
      count: a.count,
      area_sqft: rounded(a.area_sqft),
      area: rounded(areaIn(a.area_sqft, unit), unit === 'acres' ? 4 : 2),
    })),
    objects: q.objects.map((o) => ({ class: o.class, label: labelOf(o.class), count: o.count })),
    total_area_sqft: rounded(total),
    total_area: rounded(areaIn(total, unit), unit === 'acres' ? 4 : 2),
    tree_count: treeCount,
    object_count: q.objects.reduce((s, o) => s + o.count, 0),
  };
}
