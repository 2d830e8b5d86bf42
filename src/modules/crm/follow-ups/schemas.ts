// Request and answer schemas of POST /v1/follow-ups/bulk.
import { Type, type Static } from '@sinclair/typebox';
import { Body, OneOf, RecordId } from '#platform/schemas.ts';
import { SNOOZES } from '#crm/reminders/when.ts';

export const BULK_ACTIONS = ['done', 'snooze', 'reassign'] as const;
export const MAX_BULK_IDS = 200;
export const SKIP_REASONS = ['finished', 'not_allowed', 'unchanged'] as const;

const Ids = (what: string) =>
  Type.Array(RecordId(), { minItems: 1, maxItems: MAX_BULK_IDS, description: `Ids of ${what} (up to 200)` });

export const BulkFollowUpsBody = Body(
  {
    action: OneOf(BULK_ACTIONS, { description: 'done, snooze or reassign' }),
    task_ids: Ids('job follow-ups'),
    account_task_ids: Ids('company follow-ups'),
    reminder_ids: Ids('reminders'),
    snooze: OneOf(SNOOZES, {
      description: "With action snooze: 1h, tomorrow (8 AM), next_week (Monday 8 AM), in the workspace's time zone",
    }),
    assigned_to_user_id: RecordId({ description: 'With action reassign: an office teammate' }),
  },
  { required: ['action'] },
);
export type BulkFollowUpsInput = Static<typeof BulkFollowUpsBody>;

export const BulkFollowUpsResult = Type.Object({
  data: Type.Object({
    action: Type.String(),
    changed: Type.Array(Type.Integer(), { description: 'Ids changed, in the order sent' }),
    skipped: Type.Array(
      Type.Object({
        id: Type.Integer(),
        reason: Type.String({
          description: 'finished (already done or dismissed), not_allowed (the user may not act on it), unchanged',
        }),
      }),
    ),
  }),
});
