// The listing's options (document 3: options {count_categories, line_categories, surfaces,
// custom_items [{name, type, on_takeoff}], types (per category), phases}): what an edit may name.
// Categories are the ones add_count and add_line take; custom items are this measurement's and,
// with on_takeoff false, the ones the workspace's other measurements use (the last 100 named);
// phases are the default three and every phase on the measurement. What is on the measurement is
// read from its totals (kept at every save), so a page of shapes costs the same at 1,000 shapes
// as at 100,000.
import type { Executor } from '#db/dialect.ts';
import type { Measurement } from '#db/tables.ts';
import type { Totals } from './totals.ts';
import {
  AREA_SURFACES,
  DEFAULT_PHASES,
  EDITABLE_COUNT_CATEGORIES,
  EDITABLE_LINE_CATEGORIES,
  TYPES,
} from './vocabulary.ts';

export async function optionsOf(db: Executor, m: Measurement) {
  const totals = JSON.parse(m.totals) as Totals;
  const [own, others] = await Promise.all([
    db
      .selectFrom('measurement_items')
      .select(['name', 'item_type', 'color'])
      .where('measurement_id', '=', m.id)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('measurement_items')
      .select(['name', 'item_type', 'color'])
      .where('firm_id', '=', m.firm_id)
      .where('measurement_id', '!=', m.id)
      .orderBy('id', 'desc')
      .limit(100)
      .execute(),
  ]);
  const onTakeoff = new Set(totals.custom.filter((c) => c.count > 0).map((c) => c.item.toLowerCase()));
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
  const used = (totals.phases ?? []).filter((p) => !DEFAULT_PHASES.includes(p));
  return {
    count_categories: [...EDITABLE_COUNT_CATEGORIES],
    line_categories: [...EDITABLE_LINE_CATEGORIES],
    surfaces: [...AREA_SURFACES],
    custom_items,
    types: Object.fromEntries(Object.entries(TYPES).map(([k, v]) => [k, [...v]])),
    phases: [...DEFAULT_PHASES, ...used],
  };
}
