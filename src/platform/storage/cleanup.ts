// Removing objects whose records are gone (storage.ts: record first, then object). Best effort:
// the record's delete has committed, so a failing store leaves an orphan, never an error for the
// client; an object already gone is fine.
import type { Storage } from './storage.ts';

export async function removeObjects(storage: Storage, keys: readonly (string | null)[]): Promise<void> {
  await Promise.all(keys.filter((k): k is string => k !== null).map((k) => storage.delete(k).catch(() => undefined)));
}
