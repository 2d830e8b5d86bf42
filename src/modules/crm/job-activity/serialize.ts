// The job activity log entry on the wire, and the small {id, name} user reference that notes,
// activities, tasks and log entries share.
import { Type } from '@sinclair/typebox';
import type { JobActivity } from '#db/tables.ts';
import { NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';

export const UserRefSchema = Type.Object({ id: Type.Integer(), name: Type.String() });

/** {id, name} of a joined user, or null when the row names none (or the user row is gone). */
export function userRef(id: number | null, name: string | null | undefined) {
  return id === null || name === null || name === undefined ? null : { id, name };
}

export const JobActivityEntrySchema = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  kind: Type.String(),
  summary: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  user: NullableObject(UserRefSchema),
  created_at: Type.String(),
});

export function jobActivityEntryObject(row: JobActivity & { user_name: string | null }) {
  return {
    id: row.id,
    job_id: row.job_id,
    kind: row.kind,
    summary: row.summary,
    data: JSON.parse(row.data) as Record<string, unknown>,
    user: userRef(row.user_id, row.user_name),
    created_at: zWire(row.created_at),
  };
}
