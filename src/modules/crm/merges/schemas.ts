// Request and response schemas of merge previews and merges of customers, contacts and sites
// (document 2, Search and merge); the service's MergeInput is derived from the bodies.
import { Type, type Static } from '@sinclair/typebox';
import { Body, OneOf, RecordId } from '#platform/schemas.ts';

const Brief = Type.Object({ id: Type.Integer(), name: Type.String(), archived: Type.Boolean() });

const FieldDiff = Type.Object({
  field: Type.String({ description: 'a field name, or custom:<key> for a custom field' }),
  label: Type.String(),
  keep_value: Type.Unknown(),
  merge_away_value: Type.Unknown(),
  needs_choice: Type.Boolean({ description: 'both records have a different, non-blank value' }),
  default: OneOf(['keep', 'drop'], {
    description:
      'keep: the kept record keeps its value; drop: it takes the merged-away value (the default when its own is blank)',
  }),
  can_keep_both: Type.Boolean(),
});

export const MergePreviewSchema = Type.Object({
  keep: Brief,
  merge_away: Brief,
  fields: Type.Array(FieldDiff),
  moves: Type.Array(Type.Object({ count: Type.Integer(), label: Type.String() })),
  blockers: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
  invoiced_job_count: Type.Optional(Type.Integer()),
});

export const MergeResultSchema = Type.Object({
  kept: Brief,
  merged_id: Type.Integer(),
  merged_name: Type.String(),
  message: Type.String(),
});

/** GET …/:id/merge-preview?into= the record kept. */
export const MergePreviewQuery = Type.Object({ into: RecordId() });

const Choices = Type.Record(Type.String(), OneOf(['keep', 'drop', 'both']), {
  maxProperties: 200,
  description:
    "{field: keep | drop}; keep keeps the kept record's value, drop takes the merged-away one; custom fields as custom:<key>; a contact's phone and email may be both",
});

/** POST /v1/client-accounts/:id/merge. */
export const MergeClientAccountBody = Body(
  { into_client_account_id: RecordId(), choices: Choices },
  { required: ['into_client_account_id'] },
);
/** POST /v1/contacts/:id/merge. */
export const MergeContactBody = Body(
  { into_contact_id: RecordId(), choices: Choices },
  { required: ['into_contact_id'] },
);
/** POST /v1/locations/:id/merge. */
export const MergeLocationBody = Body(
  { into_location_id: RecordId(), choices: Choices, move_invoiced_jobs: Type.Boolean() },
  { required: ['into_location_id'] },
);

type MergeBody =
  | Static<typeof MergeClientAccountBody>
  | Static<typeof MergeContactBody>
  | Static<typeof MergeLocationBody>;

/** A merge as the service takes it: any kind's body, with its into_<kind>_id as into_id. */
export type MergeInput = Omit<Static<typeof MergeLocationBody>, 'into_location_id'> & { into_id: number };

export function mergeInputOf(body: MergeBody): MergeInput {
  if ('into_location_id' in body) {
    const { into_location_id, ...rest } = body;
    return { ...rest, into_id: into_location_id };
  }
  if ('into_contact_id' in body) {
    const { into_contact_id, ...rest } = body;
    return { ...rest, into_id: into_contact_id };
  }
  const { into_client_account_id, ...rest } = body;
  return { ...rest, into_id: into_client_account_id };
}
