// A measurement's shapes, items and switches as the edit engine holds them (state.ts).
import type { Executor } from '#db/dialect.ts';
import type { Measurement, MeasurementItem } from '#db/tables.ts';
import { itemRows, shapeRows } from '../measurements/repo.ts';
import { shapeOfRow } from './rows.ts';
import type { EditState, ItemState } from './state.ts';
import { cachedState, keepState } from './state-cache.ts';

/** Custom items keyed by lower-cased name. */
export function itemsOf(rows: MeasurementItem[]): Map<string, ItemState> {
  return new Map(
    rows.map((i): [string, ItemState] => [
      i.name.toLowerCase(),
      {
        name: i.name,
        item_type: i.item_type,
        color: i.color,
        phase_split: i.phase_split === 1,
        counts_toward_area: i.counts_toward_area === 1,
      },
    ]),
  );
}

/** The measurement's state at its rev: from this process's cache when it holds that rev, else its rows. */
export async function loadState(db: Executor, m: Measurement): Promise<EditState> {
  let held = cachedState(db, m.firm_id, m.id, m.rev);
  if (!held) {
    const [shapeList, itemList] = await Promise.all([shapeRows(db, m.id), itemRows(db, m.id)]);
    held = { shapes: new Map(shapeList.map((r) => [r.shape_id, shapeOfRow(r)])), items: itemsOf(itemList) };
    keepState(db, m.firm_id, m.id, m.rev, held.shapes, held.items);
  }
  const { shapes, items } = held;
  return {
    shapes,
    items,
    typed: JSON.parse(m.typed_quantities) as Record<string, number>,
    frame: { north: m.north, south: m.south, east: m.east, west: m.west },
  };
}
