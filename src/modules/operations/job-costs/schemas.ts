// Job costs (docs/api-decisions.md, "Operations: time and job costs"): costs entered on a job, and
// the cost row every read answers with (GET /v1/jobs/{id}/costs, the job_costs export,
// job_cost_out), entered costs and labor from time entries alike.
import { type Static, Type } from '@sinclair/typebox';
import { COST_TYPES } from '#db/tables/operations.ts';
import { Body, DateString, IdParam, Nullable, OneOf, StringEnum } from '#platform/schemas.ts';

export const CostRow = Type.Object({
  id: Type.Integer({ description: 'the job cost id (source entry) or the time entry id (source labor)' }),
  job_id: Type.Integer(),
  source: StringEnum(['entry', 'labor'] as const, {
    description: 'entry: entered with POST /v1/jobs/{id}/costs; labor: a time entry at its snapshot rate',
  }),
  cost_type: StringEnum(COST_TYPES),
  cost_code: Nullable(Type.String()),
  amount: Type.Number({ description: 'dollars' }),
  date: Type.String({ description: 'YYYY-MM-DD' }),
  description: Nullable(Type.String()),
  quantity: Nullable(Type.Number()),
  unit: Nullable(Type.String()),
  time_entry_id: Nullable(Type.Integer({ description: 'source labor: the time entry' })),
  user_id: Nullable(Type.Integer({ description: 'source labor: the worker; source entry: who entered it' })),
  reviewed_at: Nullable(Type.String()),
  reconciled_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type CostRowObject = Static<typeof CostRow>;

export const CreateJobCostBody = Body(
  {
    cost_type: OneOf(COST_TYPES),
    cost_code: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    amount: Type.Number({ minimum: -1e9, maximum: 1e9, description: 'dollars; negative for a credit' }),
    date: DateString,
    description: Type.String({ maxLength: 1000 }),
    quantity: Type.Number({ minimum: -1e9, maximum: 1e9 }),
    unit: Type.String({ minLength: 1, maxLength: 50 }),
  },
  { required: ['cost_type', 'amount', 'date'] },
);
export type CreateJobCostInput = Static<typeof CreateJobCostBody>;

export const JobCostParams = IdParam();
export const OneCostRow = Type.Object({ data: CostRow });

const Totals = Type.Object(
  Object.fromEntries([...COST_TYPES, 'total'].map((k) => [k, Type.Number()])) as Record<
    (typeof COST_TYPES)[number] | 'total',
    ReturnType<typeof Type.Number>
  >,
  { description: 'dollars by cost type, and in all' },
);
export const JobCostList = Type.Object({ data: Type.Array(CostRow), totals: Totals });
