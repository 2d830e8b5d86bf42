// Re-bids, their cycles and history (document 2, "Re-bid and re-bid history" and "Re-bids,
// reminders, follow-ups"; docs/decisions/operations-rebids.md). Identity is the pair key
// (loc:<site_id>) plus cycle_id, always in the JSON body.
import { type Static, Type } from '@sinclair/typebox';
import { AccountTaskSchema } from '#crm/index.ts';
import { Body, DateString, IdParam, ListOf, Nullable, OneOf, One, PageQuery, RecordId } from '#platform/schemas.ts';

const EveryYears = Type.Integer({ minimum: 1, maximum: 50, description: 'whole years between rounds' });
const ServiceName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Key = Type.String({ minLength: 1, maxLength: 500, description: 'loc:<site_id>' });
const Pair = { key: Key, cycle_id: RecordId() };

// ---- cycles ---------------------------------------------------------------------------------

export const RebidCycle = Type.Object({
  id: Type.Integer(),
  service: Type.String(),
  every_years: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type RebidCycleObject = Static<typeof RebidCycle>;
export const RebidCycleList = Type.Object({ data: Type.Array(RebidCycle) });
export const OneRebidCycle = One(RebidCycle);
export const RebidCycleParams = IdParam();
export const UpdateRebidCycleBody = Body({ every_years: EveryYears });
export type UpdateRebidCycleInput = Static<typeof UpdateRebidCycleBody>;

// ---- history --------------------------------------------------------------------------------

export const RebidHistoryRecord = Type.Object({
  id: Type.Integer(),
  location_id: Type.Integer(),
  cycle_id: Type.Integer(),
  service: Type.String(),
  done_on: Type.String(),
  amount: Nullable(Type.Number({ description: 'dollars' })),
  note: Nullable(Type.String()),
  source: OneOf(['manual', 'work_order'], { description: 'manual: hand-added; work_order: a completed work order' }),
  work_order_id: Nullable(Type.Integer()),
  created_at: Type.String(),
});
export type RebidHistoryObject = Static<typeof RebidHistoryRecord>;
export const OneRebidHistoryRecord = One(RebidHistoryRecord);

export const CreateRebidHistoryBody = Body(
  {
    location_id: RecordId(),
    cycle_id: RecordId({ description: 'the cycle the work was for; or new_service' }),
    new_service: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '\\S',
      description: 'a service with no cycle yet: adds one (an existing cycle of that name, any case, is used)',
    }),
    new_service_every_years: Type.Integer({ minimum: 1, maximum: 50, description: 'default 2; with new_service' }),
    done_on: DateString,
    amount: Nullable(Type.Number({ minimum: 0, maximum: 1e10, description: 'dollars' })),
    note: Nullable(Type.String({ maxLength: 2000 })),
  },
  { required: ['location_id', 'done_on'] },
);
export type CreateRebidHistoryInput = Static<typeof CreateRebidHistoryBody>;
export const RebidHistoryParams = IdParam('record_id');

// ---- re-bids --------------------------------------------------------------------------------

export const Rebid = Type.Object({
  key: Type.String({ description: 'loc:<site_id>' }),
  cycle_id: Type.Integer(),
  location_id: Type.Integer(),
  location: Type.Object({ id: Type.Integer(), name: Type.String(), address: Type.String() }),
  client_account_id: Nullable(Type.Integer()),
  service: Type.String(),
  every_years: Type.Integer(),
  last_done_on: Type.String({ description: 'the latest work of this service on the site' }),
  last_amount: Nullable(Type.Number({ description: 'dollars, of that work' })),
  due_on: Type.String({ description: 'last_done_on plus every_years' }),
  status: OneOf(['due', 'upcoming', 'snoozed', 'not_doing'], {
    description: 'due: within 90 days or overdue; upcoming: later; snoozed until snooze_until; not_doing',
  }),
  snooze_until: Nullable(Type.String()),
  not_doing_reason: Nullable(Type.String()),
  not_doing_note: Nullable(Type.String()),
  rebid_job_id: Nullable(Type.Integer({ description: 'the job made for this round (create-jobs)' })),
});
export type RebidObject = Static<typeof Rebid>;
export const OneRebid = One(Rebid);
export const RebidList = ListOf(Rebid);

export const RebidListQuery = Type.Object(
  {
    status: Type.Optional(
      OneOf(['due', 'snoozed', 'not_doing', 'all'], {
        description: 'due (default): neither snoozed nor not doing, and due within due_within_days or overdue',
      }),
    ),
    due_within_days: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 3650,
        description: 'due on or before today plus this many days (default 90 with status due; no limit otherwise)',
      }),
    ),
    location_id: Type.Optional(RecordId()),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);
export type RebidListFilter = Static<typeof RebidListQuery>;

export const RebidPairBody = Body(Pair, { required: ['key', 'cycle_id'] });
export type RebidPairInput = Static<typeof RebidPairBody>;

export const SnoozeRebidBody = Body(
  { ...Pair, until: { ...DateString, description: 'YYYY-MM-DD, after today, at most two years out' } },
  { required: ['key', 'cycle_id', 'until'] },
);
export type SnoozeRebidInput = Static<typeof SnoozeRebidBody>;

export const NOT_DOING_REASONS = ['sold', 'self', 'competitor', 'other'] as const;
export const NotDoingRebidBody = Body(
  {
    ...Pair,
    reason: OneOf(NOT_DOING_REASONS, { description: 'sold, self, competitor, other (other needs a note)' }),
    note: Nullable(Type.String({ maxLength: 2000 })),
  },
  { required: ['key', 'cycle_id', 'reason'] },
);
export type NotDoingRebidInput = Static<typeof NotDoingRebidBody>;

export const FollowUpRebidBody = Body(
  {
    ...Pair,
    due: DateString,
    title: Type.String({ minLength: 1, maxLength: 200, description: 'default names the service and property' }),
    assigned_to_user_id: RecordId({ description: "default the property's salesperson, else the key's user" }),
    task_type: OneOf(['call', 'email', 'meeting', 'site_visit', 'follow_up'], { description: 'call (default)' }),
  },
  { required: ['key', 'cycle_id', 'due'] },
);
export type FollowUpRebidInput = Static<typeof FollowUpRebidBody>;
export const RebidFollowUp = One(Type.Object({ rebid: Rebid, task: AccountTaskSchema }));

export const CreateRebidJobsBody = Body(
  {
    items: Type.Array(Type.Object(Pair, { required: ['key', 'cycle_id'], additionalProperties: false }), {
      minItems: 1,
      maxItems: 100,
    }),
  },
  { required: ['items'] },
);
export type CreateRebidJobsInput = Static<typeof CreateRebidJobsBody>;
export const RebidJobItem = Type.Object({
  key: Type.String(),
  cycle_id: Type.Integer(),
  result: OneOf(['created', 'existing', 'failed']),
  rebid_job_id: Nullable(Type.Integer()),
  rebid_job_name: Nullable(Type.String()),
  error: Nullable(Type.String({ description: 'why a failed item failed' })),
});
export const CreateRebidJobsResult = One(
  Type.Object({
    created: Type.Integer(),
    existing: Type.Integer(),
    failed: Type.Integer(),
    items: Type.Array(RebidJobItem),
  }),
);
export type RebidJobItemObject = Static<typeof RebidJobItem>;
