// Request schemas of notes and logged interactions (document 2, Required fields of create calls);
// the service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, OneOf, PageQuery } from '#platform/schemas.ts';
import { NOTE_TYPES } from './serialize.ts';

export const MAX_NOTE_LENGTH = 20_000;

const NoteType = OneOf(NOTE_TYPES, { description: 'note (default); call, email or meeting logs an interaction' });

const noteFields = {
  content: Type.String({ minLength: 1, maxLength: MAX_NOTE_LENGTH }),
  type: NoteType,
  occurred_at: Type.String({ maxLength: 64, description: 'ISO 8601 (no zone means UTC); default now' }),
  pinned: Type.Boolean(),
};

/** POST /v1/{jobs,contacts,client-accounts}/{id}/notes. */
export const CreateNoteBody = Body(noteFields, { required: ['content'] });
export type CreateNoteInput = Static<typeof CreateNoteBody>;
/** PATCH /v1/notes/:id. */
export const UpdateNoteBody = Body(noteFields);
export type UpdateNoteInput = Static<typeof UpdateNoteBody>;

export const ListNotesQuery = Type.Object({
  type: Type.Optional(NoteType),
  pinned: Type.Optional(Type.Boolean()),
  ...PageQuery(200),
});
