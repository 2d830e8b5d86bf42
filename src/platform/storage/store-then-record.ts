// Store first, then record (docs/architecture.md, "Stored files"): a record naming stored objects
// is written only once they are stored, so no record ever names a missing object; objects whose
// record was not written go again, so none is left behind by a refused or failed write. Photos,
// files and signed copies (a proposal's executed PDF) all take this one path.
import { removeObjects } from './cleanup.ts';
import type { Storage } from './storage.ts';

/**
 * Runs `record` for objects already stored under `keys`. When it throws, every object is removed
 * and the error goes on; when it answers, the objects `kept` does not name are removed (by default
 * all are kept: a write that found the work done already, or lost a race, keeps none).
 */
export async function recordStored<T>(
  storage: Storage,
  keys: readonly (string | null)[],
  record: () => Promise<T>,
  kept: (result: T) => readonly (string | null)[] = () => keys,
): Promise<T> {
  let result: T;
  try {
    result = await record();
  } catch (err) {
    await removeObjects(storage, keys);
    throw err;
  }
  const keep = new Set(kept(result));
  await removeObjects(
    storage,
    keys.filter((k) => !keep.has(k)),
  );
  return result;
}
