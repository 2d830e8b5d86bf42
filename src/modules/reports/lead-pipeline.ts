// The lead-pipeline report (docs/reports.md, "Lead pipeline"), for workspaces with the Leads
// pipeline edition: the leads on the pipeline submitted from start to end (date basis `created`:
// the lead's submitted_at, local dates), by pipeline stage.
//
// - Which leads: on_leads_pipeline, not spam; a user who sees only their own jobs sees the leads
//   assigned to them (the lead list's rule).
// - Stage: the lead's pipeline_stage_id. The pipeline's stages are kept by the app, not by this
//   service (no stage table or setting holds their names), so a stage is shown as "Stage <id>",
//   and a lead not yet placed as "(no stage)".
// - Estimated value: the value typed on the lead; average age: days from submitted_at to the end
//   of `end` (local midnight after it), averaged, one decimal; converted: the lead has a job (it was
//   moved to sales); won: that job is in a won stage, at the job's value (JOB_VALUE_CENTS).
//
// Listed only for a workspace with the pipeline on or any lead on it (appliesTo). One GROUP BY.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { can } from '#platform/permissions.ts';
import { addDays } from '#platform/time.ts';
import { JOB_VALUE_CENTS, type JobsQuery, startOfDay } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { RunParams } from './run-query.ts';
import type { FullTable } from './run-result.ts';
import { countOf, sumMoney } from './table-math.ts';

/** The workspace's leads submitted in the range that the user sees, with their job and its stage left joined. */
export function leadsInRange(ctx: ServiceContext, p: RunParams): JobsQuery {
  const user = ctx.auth.user;
  let qb = ctx.database.db
    .selectFrom('leads')
    .leftJoin('jobs', 'jobs.id', 'leads.job_id')
    .leftJoin('job_stages as stage', (j) =>
      j.onRef('stage.firm_id', '=', 'jobs.firm_id').onRef('stage.key', '=', 'jobs.status'),
    )
    .where('leads.firm_id', '=', ctx.auth.firm.id)
    .where('leads.status', '!=', 'spam')
    .where('leads.submitted_at', '>=', startOfDay(ctx, p.start))
    .where('leads.submitted_at', '<', startOfDay(ctx, addDays(p.end, 1))) as unknown as JobsQuery;
  if (can(user, 'sees_own_jobs_only')) qb = qb.where('leads.assigned_to_user_id', '=', user.id);
  return qb;
}

export const wonCount = sql<number>`sum(case when stage.type = 'won' then 1 else 0 end)`;
export const wonCents = sql<number>`sum(case when stage.type = 'won' then ${JOB_VALUE_CENTS} else 0 end)`;

export const leadPipeline: ReportDefinition = {
  key: 'lead-pipeline',
  title: 'Lead pipeline',
  section: 'Sales',
  description:
    'Leads on the Leads pipeline submitted between start and end, by pipeline stage: count, estimated value, average age, converted to a job, and jobs won with their value',
  date_basis: 'created',
  uses: [],
  async appliesTo(ctx) {
    if (ctx.auth.settings.leads_pipeline) return true;
    // One probe of the partial index leads_on_pipeline (039): the firm's first lead on the pipeline.
    const hit = await ctx.database.db
      .selectFrom('leads')
      .select('leads.id')
      .where('leads.firm_id', '=', ctx.auth.firm.id)
      // A literal, as the index's predicate is: a bound value would not let either engine use it.
      .where(sql<boolean>`leads.on_leads_pipeline = 1`)
      .limit(1)
      .executeTakeFirst();
    return hit !== undefined;
  },
  async run(ctx: ServiceContext, p) {
    const endsAt = startOfDay(ctx, addDays(p.end, 1));
    const age = sql<number>`(${ctx.database.dialect.millisBetween(sql`leads.submitted_at`, sql`cast(${endsAt} as text)`)} / 1000.0)`;
    const rows = await leadsInRange(ctx, p)
      .where('leads.on_leads_pipeline', '=', 1)
      .select([
        'leads.pipeline_stage_id as stage_id',
        sql<number>`count(*)`.as('leads'),
        sql<number>`coalesce(sum(leads.estimated_value_cents), 0)`.as('value_cents'),
        sql<number>`sum(${age})`.as('age_seconds'),
        sql<number>`sum(case when leads.job_id is not null then 1 else 0 end)`.as('converted'),
        wonCount.as('won'),
        wonCents.as('won_cents'),
      ])
      .groupBy('leads.pipeline_stage_id')
      .orderBy(sql`case when leads.pipeline_stage_id is null then 0 else 1 end`)
      .orderBy('leads.pipeline_stage_id')
      .execute();
    const days = (seconds: number) => Math.round(seconds / 8640) / 10;
    const table: FullTable = {
      key: 'stages',
      title: 'Leads by pipeline stage',
      columns: [
        { key: 'stage', label: 'Stage', kind: 'text' },
        { key: 'leads', label: 'Leads', kind: 'int' },
        { key: 'estimated_value', label: 'Estimated value', kind: 'money' },
        { key: 'average_age_days', label: 'Average age (days)', kind: 'number' },
        { key: 'converted', label: 'Converted', kind: 'int' },
        { key: 'won', label: 'Won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
      ],
      rows: rows.map((r) => ({
        stage: r.stage_id === null ? '(no stage)' : `Stage ${Number(r.stage_id)}`,
        stage_id: r.stage_id === null ? null : Number(r.stage_id),
        leads: Number(r.leads),
        estimated_value: centsToDollars(Number(r.value_cents)),
        average_age_days: days(Number(r.age_seconds) / Number(r.leads)),
        age_seconds: Number(r.age_seconds),
        converted: Number(r.converted),
        won: Number(r.won),
        won_value: centsToDollars(Number(r.won_cents)),
      })),
      total: (list) => {
        const n = countOf(list, 'leads');
        return {
          stage: 'Total',
          leads: n,
          estimated_value: sumMoney(list, 'estimated_value'),
          // Every lead's age averaged (age_seconds is each stage's sum, not shown).
          average_age_days: n === 0 ? null : days(countOf(list, 'age_seconds') / n),
          converted: countOf(list, 'converted'),
          won: countOf(list, 'won'),
          won_value: sumMoney(list, 'won_value'),
        };
      },
      note: 'Stages are shown by id: their names are kept in the app',
    };
    const all = table.total!(table.rows);
    return {
      summary: [
        { label: 'Leads', value: String(all.leads) },
        { label: 'Estimated value', value: formatCents(Math.round(Number(all.estimated_value) * 100)) },
        { label: 'Converted', value: String(all.converted) },
        { label: 'Won', value: `${all.won} (${formatCents(Math.round(Number(all.won_value) * 100))})` },
      ],
      tables: [table],
    };
  },
};
