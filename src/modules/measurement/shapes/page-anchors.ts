// Deep pages of a measurement's shapes without walking the rows before them (issue 27: a page at
// offset 99,500 of 100,000 shapes should cost what the first page does). Offset paging is the
// spec's, and a database answers OFFSET n by stepping over n index entries. So, once per
// measurement, rev and filter, this process reads the shapes' ids in order (one index-only scan)
// and keeps every STRIDE-th id: a page at `offset` then starts from the anchor at or before it
// (`id >= anchor`) and steps over fewer than STRIDE rows.
//
// Safe with several processes for the reason the state cache is (state-cache.ts): shape rows
// change only in a save, every save moves rev, and anchors are kept per rev, so anchors of another
// rev are never used. Kept per database handle too (tests run several apps in one process).
import type { Executor } from '#db/dialect.ts';

/** Rows between anchors: a page steps over fewer than this. */
export const STRIDE = 250;
/** Anchor sets kept (least recently used go first): a 100k-shape set is 400 numbers. */
const MAX_SETS = 500;

const sets = new Map<string, { rev: number; ids: number[] }>();
const handles = new WeakMap<object, number>();
let lastHandle = 0;

function keyOf(db: object, id: number, filter: string): string {
  let handle = handles.get(db);
  if (handle === undefined) {
    handle = ++lastHandle;
    handles.set(db, handle);
  }
  return `${handle}:${id}:${filter}`;
}

export interface ShapeFilter {
  kind?: string;
  category?: string;
}

/**
 * Where a page at `offset` starts: `{ fromId, skip }` (rows with id ≥ fromId, skipping `skip`), or
 * null for a measurement of fewer than STRIDE shapes or an offset past the last one. The first
 * page of a large measurement starts from an anchor too (its first shape's id): PostgreSQL may read
 * a measurement that is most of the table through the primary key, stepping over the rows of every
 * measurement made before it, unless the page says where its ids begin.
 */
export async function pageStart(
  db: Executor,
  m: { id: number; rev: number; shape_count: number },
  filter: ShapeFilter,
  offset: number,
): Promise<{ fromId: number; skip: number } | null> {
  if (m.shape_count < STRIDE) return null;
  const key = keyOf(db, m.id, `${filter.kind ?? ''}|${filter.category ?? ''}`);
  let set = sets.get(key);
  if (!set || set.rev !== m.rev) {
    let qb = db.selectFrom('measurement_shapes').select('id').where('measurement_id', '=', m.id);
    if (filter.kind !== undefined) qb = qb.where('kind', '=', filter.kind as 'area');
    if (filter.category !== undefined) qb = qb.where('category', '=', filter.category);
    const rows = await qb.orderBy('measurement_id').orderBy('id').execute();
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += STRIDE) ids.push(rows[i]!.id);
    set = { rev: m.rev, ids };
    if (sets.size >= MAX_SETS) sets.delete(sets.keys().next().value!);
  }
  // Most recently used last.
  sets.delete(key);
  sets.set(key, set);
  const at = Math.floor(offset / STRIDE);
  if (at >= set.ids.length) return null;
  return { fromId: set.ids[at]!, skip: offset - at * STRIDE };
}
