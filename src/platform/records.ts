// Small rules shared by the upserts, merges and deletes of records.
import { ApiError, conflict } from './errors.ts';

/** A value counts as blank when it is null, undefined or whitespace only. */
export function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

/**
 * The changes that fill `existing`'s blank fields from `incoming`, leaving filled ones alone
 * (the upsert rule "fills only blank fields" and the merge rule "blanks are filled").
 */
export function fillBlanks<T extends Record<string, unknown>>(
  existing: T,
  incoming: Partial<T>,
  fields: readonly (keyof T)[],
): Partial<T> {
  const changes: Partial<T> = {};
  for (const f of fields) {
    if (isBlank(existing[f]) && !isBlank(incoming[f])) changes[f] = incoming[f];
  }
  return changes;
}

/** 409 for an external_ref another record of the workspace holds, naming the holder (document 2, Syncing rules 1). */
export function externalRefHeld(ref: string, holder: { type: string; id: number; name: string }) {
  return conflict('external_ref already used', {
    message: `external_ref "${ref}" is held by ${holder.type.replace('_', ' ')} ${holder.id} (${holder.name})`,
    holder,
  });
}

/**
 * Document 1, retry rules: "a second delete is 404, treat as done". A DELETE that archives answers
 * a record that is already archived with the record's own 404 (`missing`), as if it were gone, with
 * a code and message saying why; restoring it is the way back.
 */
export function alreadyArchived(missing: ApiError): ApiError {
  return new ApiError(404, missing.body.error, {
    code: 'already_archived',
    message: 'Already archived: a repeated delete answers 404 and can be treated as done',
  });
}
