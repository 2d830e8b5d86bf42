// GET /v1/reports/labor-hours (document 2, Owner reports; docs/reports.md, "Labor hours"): each
// worker's closed, not void time in a date range, by day, job and cost code, split into regular,
// overtime and doubletime by the one overtime rule (engines/payroll, per worker-week, the same split
// every time-entry read shows), with pay per line only for a user who may see pay.
//
// The database selects the entries (one query, bounded by the range: at most 93 days plus the days of
// the first week before `start`, which the overtime split needs); the split is the payroll engine's.
import type { ServiceContext } from '#platform/context.ts';
import { badRequest, forbidden } from '#platform/errors.ts';
import { centsToDollars } from '#platform/money.ts';
import { can } from '#platform/permissions.ts';
import { assertCrewScheduling } from '#platform/guards.ts';
import { addDays, daysBetween, millisOf } from '#platform/time.ts';
import { localToStored, todayIn } from '#platform/time-zone.ts';
import { timeEntriesOf } from '#operations/index.ts';
import { hoursOf, laborCostCents, splitOvertime, weekStartOf } from '#engines/payroll/index.ts';
import { countedTime } from './counted-time.ts';
import {
  EARLIEST_DATE,
  LABOR_RANGE_DAYS,
  LATEST_DATE,
  type LaborHoursInput,
  type LaborHoursObject,
  type LaborLineObject,
  type LaborPersonObject,
} from './schemas.ts';

/** Who may run it: crew scheduling on and a user with Approve payroll. */
export function assertMayRunLaborHours(ctx: ServiceContext): void {
  assertCrewScheduling(ctx, 'Turn on crew scheduling to run the labor-hours report');
  if (!can(ctx.auth.user, 'payroll_approver'))
    throw forbidden('Payroll approver required', {
      code: 'payroll_approver_required',
      message: "The labor-hours report needs a user with the Approve payroll permission (the key's user has not)",
    });
}

export const mayRunLaborHours = (ctx: ServiceContext) =>
  ctx.auth.settings.crew_scheduling_enabled && can(ctx.auth.user, 'payroll_approver');

function assertInReach(field: 'start' | 'end', date: string | undefined): void {
  if (date !== undefined && (date < EARLIEST_DATE || date > LATEST_DATE))
    throw badRequest(`${field} must be between ${EARLIEST_DATE} and ${LATEST_DATE}`, {
      code: 'invalid_request',
      field,
    });
}

/**
 * The dates covered: both given, or this week (the workspace's week start, in its time zone) when
 * neither is; one alone makes a week with it (start and the six days after, or end and the six before).
 */
export function laborRange(ctx: ServiceContext, q: LaborHoursInput): { start: string; end: string } {
  assertInReach('start', q.start);
  assertInReach('end', q.end);
  let { start, end } = q;
  if (start === undefined && end === undefined) {
    start = weekStartOf(todayIn(ctx.auth.firm.timezone), ctx.auth.settings.week_start);
    end = addDays(start, 6);
  } else if (end === undefined) end = addDays(start!, 6);
  else if (start === undefined) start = addDays(end, -6);
  assertInReach('start', start);
  if (end < start!)
    throw badRequest('end must not be before start', { code: 'invalid_request', field: 'end', start, end });
  const days = daysBetween(start!, end) + 1;
  if (days > LABOR_RANGE_DAYS)
    throw badRequest(`The labor-hours range is at most ${LABOR_RANGE_DAYS} days`, {
      code: 'invalid_request',
      field: 'end',
      message: `start ${start} to end ${end} covers ${days} days; run the report over several ranges of at most ${LABOR_RANGE_DAYS} days`,
      max_days: LABOR_RANGE_DAYS,
    });
  return { start: start!, end };
}

interface Sum {
  regularMs: number;
  overtimeMs: number;
  doubletimeMs: number;
  /** Cents; null once an entry without a pay rate is in the sum. */
  payCents: number | null;
}
/** The order localeCompare gives, from one collator made once. */
const byText = new Intl.Collator().compare;

const emptySum = (): Sum => ({ regularMs: 0, overtimeMs: 0, doubletimeMs: 0, payCents: 0 });
function add(into: Sum, from: Sum): void {
  into.regularMs += from.regularMs;
  into.overtimeMs += from.overtimeMs;
  into.doubletimeMs += from.doubletimeMs;
  into.payCents = into.payCents === null || from.payCents === null ? null : into.payCents + from.payCents;
}
function hoursOfSum(s: Sum, includesPay: boolean) {
  return {
    regular_hours: hoursOf(s.regularMs),
    overtime_hours: hoursOf(s.overtimeMs),
    doubletime_hours: hoursOf(s.doubletimeMs),
    total_hours: hoursOf(s.regularMs + s.overtimeMs + s.doubletimeMs),
    ...(includesPay ? { pay: centsToDollars(s.payCents) } : {}),
  };
}

/** GET /v1/reports/labor-hours. */
export async function laborHoursReport(ctx: ServiceContext, q: LaborHoursInput): Promise<LaborHoursObject> {
  assertMayRunLaborHours(ctx);
  const { start, end } = laborRange(ctx, q);
  const approvedOnly = q.approved_only ?? true;
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  const user = ctx.auth.user;
  const tz = ctx.auth.firm.timezone;
  const weekStart = ctx.auth.settings.week_start;
  const includesPay = can(user, 'can_see_pay');
  // From the first day of start's week (earlier time in that week moves the 40-hour point) to the
  // end of the range; time after `end` cannot change a split before it.
  const from = localToStored(weekStartOf(start, weekStart), '00:00', tz);
  const shownFrom = localToStored(start, '00:00', tz);
  const to = localToStored(addDays(end, 1), '00:00', tz);
  const [entries, visible] = await Promise.all([
    db
      .selectFrom('time_entries')
      .innerJoin('users', 'users.id', 'time_entries.user_id')
      .select([
        'time_entries.id',
        'time_entries.user_id',
        'users.name as user_name',
        'time_entries.job_id',
        'time_entries.cost_code',
        'time_entries.clock_in',
        'time_entries.clock_out',
        'time_entries.pay_rate_cents',
        'time_entries.approved_at',
      ])
      .where('time_entries.firm_id', '=', firmId)
      .where(countedTime)
      .where('time_entries.clock_in', '>=', from)
      .where('time_entries.clock_in', '<', to)
      .execute(),
    // A user who sees only their own jobs sees the time time-entry lists show them (their own, and
    // time on their jobs); the split still counts the worker's whole week.
    can(user, 'sees_own_jobs_only')
      ? timeEntriesOf(db, firmId, user)
          .where('time_entries.firm_id', '=', firmId)
          .where(countedTime)
          .where('time_entries.clock_in', '>=', shownFrom)
          .where('time_entries.clock_in', '<', to)
          .clearSelect()
          .select('time_entries.id')
          .execute()
          .then((rows) => new Set(rows.map((r) => Number(r.id))))
      : Promise.resolve(null),
  ]);
  const splits = splitOvertime(
    entries.map((e) => ({
      id: Number(e.id),
      userId: Number(e.user_id),
      clockInMs: millisOf(e.clock_in),
      clockOutMs: millisOf(e.clock_out!),
    })),
    tz,
    weekStart,
  );

  interface Line {
    date: string;
    job_id: number | null;
    cost_code: string | null;
    sum: Sum;
  }
  const people = new Map<number, { name: string; sum: Sum; lines: Map<string, Line> }>();
  for (const e of entries) {
    const id = Number(e.id);
    const split = splits.get(id)!;
    if (split.date < start || split.date > end) continue;
    if (approvedOnly && e.approved_at === null) continue;
    if (visible !== null && !visible.has(id)) continue;
    const userId = Number(e.user_id);
    const rate = e.pay_rate_cents === null ? null : Number(e.pay_rate_cents);
    const sum: Sum = {
      regularMs: split.regularMs,
      overtimeMs: split.overtimeMs,
      doubletimeMs: split.doubletimeMs,
      payCents: rate === null ? null : laborCostCents(rate, split),
    };
    const person = people.get(userId) ?? { name: e.user_name, sum: emptySum(), lines: new Map<string, Line>() };
    people.set(userId, person);
    add(person.sum, sum);
    const jobId = e.job_id === null ? null : Number(e.job_id);
    const key = JSON.stringify([split.date, jobId, e.cost_code]);
    const line = person.lines.get(key) ?? { date: split.date, job_id: jobId, cost_code: e.cost_code, sum: emptySum() };
    person.lines.set(key, line);
    add(line.sum, sum);
  }

  const totals = emptySum();
  const shown: LaborPersonObject[] = [...people.entries()]
    .sort(([a, p], [b, q]) => byText(p.name, q.name) || a - b)
    .map(([userId, p]) => {
      add(totals, p.sum);
      // A worker's lines run to thousands over 93 days: dates (YYYY-MM-DD) compare as plain text,
      // and cost codes with one collator, not a locale lookup per comparison.
      const lines = [...p.lines.values()]
        .sort(
          (a, b) =>
            (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
            (a.job_id ?? 0) - (b.job_id ?? 0) ||
            byText(a.cost_code ?? '', b.cost_code ?? ''),
        )
        .map(
          (line): LaborLineObject => ({
            date: line.date,
            job_id: line.job_id,
            cost_code: line.cost_code,
            ...hoursOfSum(line.sum, includesPay),
          }),
        );
      return { user_id: userId, name: p.name, ...hoursOfSum(p.sum, includesPay), lines };
    });
  return {
    start,
    end,
    approved_only: approvedOnly,
    includes_pay: includesPay,
    people: shown,
    totals: { people: shown.length, ...hoursOfSum(totals, includesPay) },
  };
}
