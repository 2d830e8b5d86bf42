// Job costs (docs/api-decisions.md, "Operations: time and job costs"): costs an office user enters on
// a job, and the job's cost read: those costs plus the labor of its time entries at each entry's
// snapshot rate (overtime 1.5x, doubletime 2x). Only users who may see job costs read or write them.
import type { Executor } from '#db/dialect.ts';
import type { CostType } from '#db/tables/operations.ts';
import { COST_TYPES } from '#db/tables/operations.ts';
import type { User } from '#db/tables.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { forbidden } from '#platform/errors.ts';
import { assertOfficeUser } from '#platform/guards.ts';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import { can } from '#platform/permissions.ts';
import { now, zWire } from '#platform/time.ts';
import { hoursOf as hoursOfMs } from '#engines/payroll/index.ts';
import { entryHours, payCents, type WeekRule } from '../time-entries/hours.ts';
import { timeEntriesOf } from '../time-entries/repo.ts';
import { jobCostsOf } from './repo.ts';
import type { CostRowObject, CreateJobCostInput } from './schemas.ts';
import { entryCostRow } from './serialize.ts';

/** Document 2: "a cost on a cost code named for dumping goes to dump". */
const DUMPING = /dump/i;

/** The cost type stored: a cost code that names dumping makes the cost a dump cost. */
export function costTypeOf(costType: CostType, costCode: string | null | undefined): CostType {
  return costCode && DUMPING.test(costCode) ? 'dump' : costType;
}

export function assertSeesJobCosts(user: User): void {
  if (!can(user, 'can_see_job_costs'))
    throw forbidden('Job costs hidden', {
      code: 'job_costs_hidden',
      message: "The key's user may not see job costs (can_see_job_costs)",
    });
}

/** POST /v1/jobs/{id}/costs. */
export async function createJobCost(
  ctx: ServiceContext,
  jobId: number,
  input: CreateJobCostInput,
): Promise<CostRowObject> {
  assertOfficeUser(ctx, 'Only an office user enters job costs');
  assertSeesJobCosts(ctx.auth.user);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    if (!(await findVisibleJob(trx, firmId, jobId, ctx.auth.user))) throw jobNotFound();
    const costCode = input.cost_code?.trim() ?? null;
    const at = now();
    const row = await trx
      .insertInto('job_costs')
      .values({
        firm_id: firmId,
        job_id: jobId,
        cost_type: costTypeOf(input.cost_type, costCode),
        cost_code: costCode,
        amount_cents: dollarsToCents(input.amount),
        date: input.date,
        description: input.description?.trim() || null,
        quantity: input.quantity ?? null,
        unit: input.unit?.trim() ?? null,
        created_by_user_id: ctx.auth.user.id,
        reviewed_at: null,
        reconciled_at: null,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return entryCostRow(row);
  });
}

/** Dates a cost read covers (inclusive), or all. */
export interface CostRange {
  from?: string;
  to?: string;
}

/**
 * A job's cost rows, by date (entered costs before labor on a day, then by id): entered costs and
 * the labor of its closed, not void time entries that carry a pay rate.
 */
export async function costRowsOfJob(
  db: Executor,
  firmId: number,
  user: User,
  rule: WeekRule,
  jobId: number,
  range: CostRange = {},
): Promise<CostRowObject[]> {
  let entered = jobCostsOf(db, firmId, user).where('job_costs.job_id', '=', jobId);
  if (range.from) entered = entered.where('job_costs.date', '>=', range.from);
  if (range.to) entered = entered.where('job_costs.date', '<=', range.to);
  const [costs, entries] = await Promise.all([
    entered.orderBy('job_costs.date').orderBy('job_costs.id').execute(),
    timeEntriesOf(db, firmId, user)
      .where('time_entries.job_id', '=', jobId)
      .where('time_entries.voided_at', 'is', null)
      .where('time_entries.clock_out', 'is not', null)
      .where('time_entries.pay_rate_cents', 'is not', null)
      .orderBy('time_entries.id')
      .execute(),
  ]);
  const hours = await entryHours(db, firmId, entries, rule);
  const labor: CostRowObject[] = [];
  for (const e of entries) {
    const h = hours.get(e.id)!;
    if (range.from && h.date < range.from) continue;
    if (range.to && h.date > range.to) continue;
    const s = h.split!;
    const totalMs = s.regularMs + s.overtimeMs + s.doubletimeMs;
    labor.push({
      id: e.id,
      job_id: jobId,
      source: 'labor',
      cost_type: 'labor',
      cost_code: e.cost_code,
      amount: centsToDollars(payCents(Number(e.pay_rate_cents), s)!),
      date: h.date,
      description: e.user_name,
      quantity: hoursOfMs(totalMs),
      unit: 'hr',
      time_entry_id: e.id,
      user_id: e.user_id,
      reviewed_at: null,
      reconciled_at: null,
      created_at: zWire(e.created_at),
      updated_at: zWire(e.updated_at),
    });
  }
  const rows = [...costs.map(entryCostRow), ...labor];
  return rows.sort((a, b) => a.date.localeCompare(b.date) || a.source.localeCompare(b.source) || a.id - b.id);
}

/** Dollars by cost type and in all, summed in cents. */
export function costTotals(rows: readonly CostRowObject[]): Record<CostType | 'total', number> {
  const cents = Object.fromEntries([...COST_TYPES, 'total'].map((k) => [k, 0])) as Record<CostType | 'total', number>;
  for (const r of rows) {
    const c = dollarsToCents(r.amount);
    cents[r.cost_type] += c;
    cents.total += c;
  }
  return Object.fromEntries(Object.entries(cents).map(([k, v]) => [k, centsToDollars(v)])) as Record<
    CostType | 'total',
    number
  >;
}

/** GET /v1/jobs/{id}/costs. */
export async function jobCosts(ctx: ServiceContext, jobId: number) {
  assertSeesJobCosts(ctx.auth.user);
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  if (!(await findVisibleJob(db, firmId, jobId, ctx.auth.user))) throw jobNotFound();
  const rule = { timeZone: ctx.auth.firm.timezone, weekStart: ctx.auth.settings.week_start };
  const data = await costRowsOfJob(db, firmId, ctx.auth.user, rule, jobId);
  return { data, totals: costTotals(data) };
}

/**
 * POST /v1/exports kind job_cost_out (the integrations area builds the file): the job's cost rows
 * dated from `from` to `to` inclusive, for a user who may see job costs, on a job they see.
 */
export async function jobCostOutRows(
  ctx: ServiceContext,
  jobId: number,
  range: Required<CostRange>,
): Promise<CostRowObject[]> {
  assertSeesJobCosts(ctx.auth.user);
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  if (!(await findVisibleJob(db, firmId, jobId, ctx.auth.user))) throw jobNotFound();
  const rule = { timeZone: ctx.auth.firm.timezone, weekStart: ctx.auth.settings.week_start };
  return costRowsOfJob(db, firmId, ctx.auth.user, rule, jobId, range);
}
