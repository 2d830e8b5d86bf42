// The last saved shapes of recently edited measurements, in this process, keyed by measurement and
// rev: a save reads its state from here instead of reading every shape row again, and leaves the
// state it wrote here under the new rev. Safe with several processes: rev moves with every save
// (whoever makes it), so an entry whose rev is not the measurement's is never used, and the save
// itself is a compare-and-set on rev. Entries hold at most MAX_SHAPES shapes in all (least recently
// used go first). Shapes are never changed in place (the edit engine copies a shape before it
// changes it), so a copy of the maps is a private state. Entries are kept per database handle as
// well: a process with two databases (tests start several apps in one process) would otherwise
// share measurement ids, and a transaction's handle simply misses.
import type { ItemState, ShapeState } from './state.ts';

const MAX_SHAPES = 200_000;

interface Entry {
  rev: number;
  shapes: Map<string, ShapeState>;
  items: Map<string, ItemState>;
}

const entries = new Map<string, Entry>();
let held = 0;

const handles = new WeakMap<object, number>();
let lastHandle = 0;

function keyOf(db: object, firmId: number, id: number): string {
  let handle = handles.get(db);
  if (handle === undefined) {
    handle = ++lastHandle;
    handles.set(db, handle);
  }
  return `${handle}:${firmId}:${id}`;
}

export function cachedState(db: object, firmId: number, id: number, rev: number): Omit<Entry, 'rev'> | null {
  const key = keyOf(db, firmId, id);
  const e = entries.get(key);
  if (!e || e.rev !== rev) return null;
  // Most recently used last.
  entries.delete(key);
  entries.set(key, e);
  return { shapes: new Map(e.shapes), items: new Map(e.items) };
}

export function keepState(
  db: object,
  firmId: number,
  id: number,
  rev: number,
  shapes: ReadonlyMap<string, ShapeState>,
  items: ReadonlyMap<string, ItemState>,
): void {
  const key = keyOf(db, firmId, id);
  const old = entries.get(key);
  if (old) {
    held -= old.shapes.size;
    entries.delete(key);
  }
  if (shapes.size > MAX_SHAPES) return;
  entries.set(key, { rev, shapes: new Map(shapes), items: new Map(items) });
  held += shapes.size;
  for (const [k, e] of entries) {
    if (held <= MAX_SHAPES) break;
    entries.delete(k);
    held -= e.shapes.size;
  }
}
