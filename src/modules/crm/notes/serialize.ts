import { Type } from '@sinclair/typebox';
import type { Note } from '#db/tables.ts';
import { Nullable, NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { UserRefSchema, userRef } from '#crm/job-activity/serialize.ts';

/** note is a plain note; call, email and meeting are logged interactions. */
export const NOTE_TYPES = ['note', 'call', 'email', 'meeting'] as const;
export type NoteType = (typeof NOTE_TYPES)[number];
export const INTERACTION_TYPES: readonly string[] = ['call', 'email', 'meeting'];

export const NoteSchema = Type.Object({
  id: Type.Integer(),
  type: Type.Union(NOTE_TYPES.map((t) => Type.Literal(t))),
  content: Type.String(),
  pinned: Type.Boolean(),
  job_id: Nullable(Type.Integer()),
  contact_id: Nullable(Type.Integer()),
  client_account_id: Nullable(Type.Integer()),
  author_user_id: Nullable(Type.Integer()),
  author: NullableObject(UserRefSchema),
  occurred_at: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export type NoteRow = Note & { author_name: string | null };

export function noteObject(n: NoteRow) {
  return {
    id: n.id,
    type: n.type as NoteType,
    content: n.content,
    pinned: n.pinned === 1,
    job_id: n.job_id,
    contact_id: n.contact_id,
    client_account_id: n.client_account_id,
    author_user_id: n.author_user_id,
    author: userRef(n.author_user_id, n.author_name),
    occurred_at: zWire(n.occurred_at),
    created_at: zWire(n.created_at),
    updated_at: zWire(n.updated_at),
  };
}
