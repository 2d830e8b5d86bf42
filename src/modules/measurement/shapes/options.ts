// The listing's options (document 3: options {count_categories, line_categories, surfaces,
// custom_items [{name, type, on_takeoff}], types (per category), phases}): what an edit may name.
// Categories are the ones add_count and add_line take; custom items are this measurement's and,
// with on_takeoff false, the ones the workspace's other measurements use (the last 100 named);
// phases are the default three and every phase on the measurement.
import type { Executor } from '#db/dialect.ts';
import type { Measurement } from '#db/tables.ts';
import {
  AREA_SURFACES,
  DEFAULT_PHASES,
  EDITABLE_COUNT_CATEGORIES,
  EDITABLE_LINE_CATEGORIES,
  TYPES,
} from './vocabulary.ts';

export async function optionsOf(db: Executor, m: Measurement) {
  const [own, counted, others, phases] = await Promise.all([
    db
      .selectFrom('measurement_items')
      .select(['name', 'item_type', 'color'])
      .where('measurement_id', '=', m.id)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('measurement_shapes')
      .select('item')
      .distinct()
      .where('measurement_id', '=', m.id)
      .where('kind', '=', 'custom')
      .execute(),
    db
      .selectFrom('measurement_items')
      .select(['name', 'item_type', 'color'])
      .where('firm_id', '=', m.firm_id)
      .where('measurement_id', '!=', m.id)
      .orderBy('id', 'desc')
      .limit(100)
      .execute(),
    db
      .selectFrom('measurement_shapes')
      .select('phase')
      .distinct()
      .where('measurement_id', '=', m.id)
      .where('phase', 'is not', null)
      .execute(),
  ]);
  const onTakeoff = new Set(counted.map((r) => r.item?.toLowerCase()));
  const names = new Set(own.map((i) => i.name.toLowerCase()));
  const custom_items = own.map((i) => ({
    name: i.name,
    type: i.item_type,
    color: i.color,
    on_takeoff: onTakeoff.has(i.name.toLowerCase()),
  }));
  for (const i of others)
    if (!names.has(i.name.toLowerCase())) {
      names.add(i.name.toLowerCase());
      custom_items.push({ name: i.name, type: i.item_type, color: i.color, on_takeoff: false });
    }
  const used = phases
    .map((p) => p.phase!)
    .filter((p) => !DEFAULT_PHASES.includes(p))
    .sort();
  return {
    count_categories: [...EDITABLE_COUNT_CATEGORIES],
    line_categories: [...EDITABLE_LINE_CATEGORIES],
    surfaces: [...AREA_SURFACES],
    custom_items,
    types: Object.fromEntries(Object.entries(TYPES).map(([k, v]) => [k, [...v]])),
    phases: [...DEFAULT_PHASES, ...used],
  };
}
