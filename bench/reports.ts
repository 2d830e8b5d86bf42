// Owner reports benchmark (docs/performance.md, "Owner reports"), issue 29's two targets:
//
// 1. Every report over a 100k-job workspace with its invoices, work orders, time and job costs
//    takes at most 2× the single SQL aggregate it wraps, run in the same process on the same rows
//    (the baseline: one GROUP BY or sum over the report's own rows, through the same database
//    handle, without HTTP, access checks or shaping; one per kind of row for a report of several).
// 2. A report's cost from 10k to 100k jobs grows at most as its rows do: its time at 100k ÷ at 10k
//    is compared with its baseline's (the rows it reads grow the same).
//
//   npm run bench:reports                   SQLite file database in a temp dir
//   DATABASE_URL=postgres://… npm run bench:reports   PostgreSQL (a fresh schema, dropped afterwards)
//   npm run bench:reports -- --quick        2k and 20k jobs, fewer rounds
//   npm run bench:reports -- --smoke        seconds, for CI (bench/mode.ts)
//   npm run bench:reports -- win-loss kpi   some of the reports
//   BENCH_STATEMENTS=1 npm run bench:reports -- receivables   also each statement's time (at 100k)
//   BENCH_KEEP=1 npm run bench:reports -- --quick receivables  keeps the database to explain queries on
//
// The jobs span 2025-2026 (created, bid three days later, decided ten days later), a quarter each
// lead, active, won and lost; each won job has an invoice (a third of them paid), a work order on
// one day, three time entries and two job costs; every job has an estimate of two lines, each
// with a material cost line. Reports run over 2025-01-01 to 2026-12-31, the
// period reports over the week or month holding 2026-06-15, labor hours over four weeks, month-end
// over June 2026.
import { performance } from 'node:perf_hooks';
import { type RawBuilder, sql } from 'kysely';
import { buildApp } from '#src/app.ts';
import { isPostgresUrl } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import { dropOnInterrupt, openBenchDatabase } from './database.ts';
import { fmt, loadNow, ms, revision } from './load.ts';
import { MODE_LABEL, saveReport, sized, warnOrFail } from './mode.ts';
import { insertJobs } from './seed.ts';
import { median } from './rounds.ts';
import { timeStatements } from './statement-times.ts';
import { benchWorkspace } from './workspace.ts';

const SMALL = sized(10_000, 2_000, 400);
const LARGE = sized(100_000, 20_000, 1_200);
const ROUNDS = sized(7, 3, 1);
const START = '2025-01-01';
const END = '2026-12-31';
const DAY0 = '2025-01-01';
const SPAN_DAYS = 720;

type Engine = 'sqlite' | 'postgres';

/** Stored instant text of DAY0 + `days` (an SQL integer expression) at `hour`:30 UTC. */
function instant(engine: Engine, days: RawBuilder<unknown>, hour: number): RawBuilder<string> {
  return engine === 'sqlite'
    ? sql`strftime('%Y-%m-%dT%H:%M:%S.000000', ${DAY0}, '+' || (${days}) || ' days', ${`+${hour} hours`}, '+30 minutes')`
    : sql`to_char(timestamp '2025-01-01' + (${days}) * interval '1 day' + interval '${sql.raw(String(hour))} hours 30 minutes', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;
}

/** YYYY-MM-DD of DAY0 + `days`. */
function dateOf(engine: Engine, days: RawBuilder<unknown>): RawBuilder<string> {
  return engine === 'sqlite'
    ? sql`date(${DAY0}, '+' || (${days}) || ' days')`
    : sql`to_char(date '2025-01-01' + (${days})::int, 'YYYY-MM-DD')`;
}

/** Spreads jobs from `fromId` on over the two years and adds what hangs on the won ones. */
async function spread(database: Database, firmId: number, ownerId: number, fromId: number): Promise<void> {
  const { db } = database;
  const engine = database.dialect.engine;
  const day = sql`(jobs.id % ${sql.lit(SPAN_DAYS)})`;
  await sql`update jobs set
      created_at = ${instant(engine, day, 14)},
      updated_at = ${instant(engine, day, 14)},
      bid_at = case when jobs.id % 5 <> 0 then ${instant(engine, sql`${day} + 3`, 15)} end,
      decided_at = case when jobs.status in ('won', 'lost') then ${instant(engine, sql`${day} + 10`, 16)} end,
      job_type = case jobs.id % 3 when 0 then 'Paving' when 1 then 'Sealcoating' else 'Striping, Paving' end,
      address_zip = cast(43200 + jobs.id % 40 as text),
      address_city = case jobs.id % 4 when 0 then 'Columbus' when 1 then 'Dublin' when 2 then 'Akron' else 'Dayton' end,
      customer_type = case jobs.id % 2 when 0 then 'Commercial' else 'Residential' end,
      operations_division = case jobs.id % 3 when 0 then 'paving' when 1 then 'seal' else null end
    where jobs.firm_id = ${firmId} and jobs.id >= ${fromId}`.execute(db);
  const won = sql`from jobs where jobs.firm_id = ${firmId} and jobs.id >= ${fromId} and jobs.status = 'won'`;
  const day10 = sql`(jobs.id % ${sql.lit(SPAN_DAYS)}) + 10`;
  await sql`insert into invoices (firm_id, job_id, invoice_number, status, payment_method, billing_type, currency,
      line_items, subtotal_cents, discount_cents, tax_cents, amount_cents, due_days, due_date, issued_at, paid_at,
      created_at, updated_at)
    select jobs.firm_id, jobs.id, 'B-' || jobs.id, case when jobs.id % 3 = 0 then 'paid' else 'sent' end, 'check',
      'standard', 'usd', '[]', jobs.estimated_value_cents, 0, 0, jobs.estimated_value_cents, 30,
      ${dateOf(engine, sql`${day10} + 35`)}, ${instant(engine, sql`${day10} + 5`, 15)},
      case when jobs.id % 3 = 0 then ${instant(engine, sql`${day10} + 40`, 15)} end,
      ${instant(engine, sql`${day10} + 5`, 15)}, ${instant(engine, sql`${day10} + 5`, 15)}
    ${won}`.execute(db);
  await sql`insert into work_orders (firm_id, job_id, title, status, is_hold, published, estimated_days, scheduled_date,
      end_date, completed_at, job_is_placeholder, created_at, updated_at)
    select jobs.firm_id, jobs.id, 'Work', 'completed', 0, 1, 1, ${dateOf(engine, sql`${day10} + 2`)},
      ${dateOf(engine, sql`${day10} + 2`)}, ${instant(engine, sql`${day10} + 2`, 20)}, 0,
      ${instant(engine, day10, 15)}, ${instant(engine, day10, 15)}
    ${won}`.execute(db);
  await sql`insert into work_order_days (firm_id, work_order_id, date, crew_id, locks, is_hold)
    select work_orders.firm_id, work_orders.id, work_orders.scheduled_date, null, 0, 0 from work_orders
    where work_orders.firm_id = ${firmId} and work_orders.job_id >= ${fromId}`.execute(db);
  for (const [hour, code] of [
    [12, 'Paving'],
    [13, 'Sealcoat'],
    [14, 'Shop'],
  ] as const)
    await sql`insert into time_entries (firm_id, user_id, job_id, cost_code, clock_in, clock_out, pay_rate_cents,
        approved_at, created_at, updated_at)
      select jobs.firm_id, ${ownerId}, jobs.id, ${code}, ${instant(engine, sql`${day10} + 2`, hour)},
        ${instant(engine, sql`${day10} + 2`, hour + 1)}, 3000, ${instant(engine, sql`${day10} + 3`, 9)},
        ${instant(engine, sql`${day10} + 2`, hour)}, ${instant(engine, sql`${day10} + 2`, hour)}
      ${won}`.execute(db);
  for (const [type, share] of [
    ['material', 3],
    ['labor', 5],
  ] as const)
    await sql`insert into job_costs (firm_id, job_id, cost_type, cost_code, amount_cents, date, created_at, updated_at)
      select jobs.firm_id, jobs.id, ${type}, ${type}, jobs.estimated_value_cents / ${sql.lit(share)},
        ${dateOf(engine, sql`${day10} + 2`)}, ${instant(engine, sql`${day10} + 2`, 20)},
        ${instant(engine, sql`${day10} + 2`, 20)}
      ${won}`.execute(db);
  await seedEstimates(database, firmId, ownerId, fromId);
  if (engine === 'postgres')
    await sql`analyze jobs, invoices, work_orders, work_order_days, time_entries, job_costs, estimates, estimate_lines,
      estimate_cost_lines`.execute(db);
}

/**
 * An estimate for every job from `fromId` on (created the day after the job, the job's estimate),
 * with two lines of one area (asphalt paving by the square foot, sealcoat by the square yard,
 * their quantities varying with the job) and one material cost line each, priced in `calculation`
 * as the pricing engine stores it (each line's price and each cost line's cost and quantity by id).
 */
async function seedEstimates(database: Database, firmId: number, ownerId: number, fromId: number): Promise<void> {
  const { db } = database;
  const engine = database.dialect.engine;
  const day = sql`(jobs.id % ${sql.lit(SPAN_DAYS)}) + 1`;
  const jobs = sql`from jobs where jobs.firm_id = ${firmId} and jobs.id >= ${fromId}`;
  const price = sql`(1000 + jobs.id % 900) * 100`;
  await sql`insert into estimates (firm_id, job_id, name, status, is_change_order, priced, revision, price_cents,
      subtotal_cents, tax_cents, cost_cents, created_by_user_id, created_at, updated_at)
    select jobs.firm_id, jobs.id, 'Estimate', case when jobs.status in ('won', 'lost') then jobs.status else 'estimate' end,
      0, 1, 1, ${price}, ${price}, 0, ${price} * 6 / 10, ${ownerId}, ${instant(engine, day, 11)}, ${instant(engine, day, 11)}
    ${jobs}`.execute(db);
  const ours = sql`from estimates where estimates.firm_id = ${firmId} and estimates.job_id >= ${fromId}`;
  await sql`update jobs set estimate_id = (select estimates.id from estimates where estimates.job_id = jobs.id)
    where jobs.firm_id = ${firmId} and jobs.id >= ${fromId}`.execute(db);
  await sql`insert into estimate_areas (firm_id, estimate_id, name, position, quantity_source, active, created_at, updated_at)
    select estimates.firm_id, estimates.id, 'Lot', 0, 'typed', 1, estimates.created_at, estimates.created_at ${ours}`.execute(
    db,
  );
  for (const [position, name, unit, qty] of [
    [0, 'Asphalt paving', 'sf', sql`(estimates.id % 50 + 10) * 100`],
    [1, 'Sealcoat', 'sy', sql`(estimates.id % 30 + 5) * 10`],
  ] as const)
    await sql`insert into estimate_lines (firm_id, estimate_id, area_id, position, name, estimating_mode, quantity, unit,
        quantity_source, unit_cost_typed, unit_price_typed, is_optional, hide_on_proposal, taxable, active, excluded,
        is_bundle_master, created_at, updated_at)
      select estimates.firm_id, estimates.id, estimate_areas.id, ${position}, ${name}, 'standard', ${qty}, ${unit}, 'typed',
        0, 0, 0, 0, 0, 1, 0, 0, estimates.created_at, estimates.created_at
      from estimates join estimate_areas on estimate_areas.estimate_id = estimates.id
      where estimates.firm_id = ${firmId} and estimates.job_id >= ${fromId}`.execute(db);
  await sql`insert into estimate_cost_lines (firm_id, estimate_id, line_item_id, position, type, name, unit,
      unit_cost_cents, unit_cost_typed, waste_factor, billing, is_alternate, suppressed, created_at, updated_at)
    select el.firm_id, el.estimate_id, el.id, 0, 'material', case el.unit when 'sf' then 'Asphalt' else 'Sealer' end,
      case el.unit when 'sf' then 'ton' else 'gal' end, 0, 0, 0, 'standard', 0, 0, el.created_at, el.created_at
    from estimate_lines el join estimates on estimates.id = el.estimate_id
    where estimates.firm_id = ${firmId} and estimates.job_id >= ${fromId}`.execute(db);
  // Each line's price is a share of the estimate's by position, each material's cost a share of that.
  const linePrice = sql`(estimates.price_cents / 100.0) * (case el.position when 0 then 0.7 else 0.3 end)`;
  const calculation =
    engine === 'sqlite'
      ? sql`json_object(
          'lines', (select json_group_object(el.id, json_object('price', ${linePrice})) from estimate_lines el
            where el.estimate_id = estimates.id),
          'cost_lines', (select json_group_object(cl.id, json_object('cost', ${linePrice} * 0.4,
              'quantity', cast(el.quantity as numeric) / 100.0))
            from estimate_cost_lines cl join estimate_lines el on el.id = cl.line_item_id
            where cl.estimate_id = estimates.id))`
      : sql`json_build_object(
          'lines', (select json_object_agg(el.id, json_build_object('price', ${linePrice})) from estimate_lines el
            where el.estimate_id = estimates.id),
          'cost_lines', (select json_object_agg(cl.id, json_build_object('cost', ${linePrice} * 0.4,
              'quantity', cast(el.quantity as numeric) / 100.0))
            from estimate_cost_lines cl join estimate_lines el on el.id = cl.line_item_id
            where cl.estimate_id = estimates.id))::text`;
  await sql`update estimates set calculation = ${calculation}
    where estimates.firm_id = ${firmId} and estimates.job_id >= ${fromId}`.execute(db);
}

/**
 * The SQL aggregate each report wraps: one GROUP BY (or sum) over the rows the report reads, on its
 * date basis, with no access check and no shaping. A report that sums several kinds of rows (the
 * weekly summary's six measures, cash forecast's invoices and scheduled work) has each of them.
 */
function baselineOf(database: Database, firmId: number, key: string, basis: string): () => Promise<unknown> {
  const { db } = database;
  /** `col` (a stored instant) on a local date from `from` to `to` (the report range by default). */
  const inRange = (col: string, from = START, to = END) =>
    sql`${sql.ref(col)} >= ${`${from}T00:00:00`} and ${sql.ref(col)} < ${`${to}T23:59:59.999999`}`;
  const jobs = (col: string) => () =>
    sql`select stage.type, count(*), sum(coalesce(jobs.estimate_total_cents, jobs.estimated_value_cents, 0))
      from jobs join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      where jobs.firm_id = ${firmId} and ${inRange(col)} group by stage.type`.execute(db);
  const time = () =>
    sql`select user_id, count(*), sum(pay_rate_cents) from time_entries
      where firm_id = ${firmId} and clock_out is not null and ${inRange('clock_in')} group by user_id`.execute(db);
  const days = () =>
    sql`select crew_id, count(*) from work_order_days where firm_id = ${firmId} and date >= ${START} and date <= ${END}
      group by crew_id`.execute(db);
  // The range's estimates (not change orders, not archived) by creator, each found on its job: the
  // report counts an estimate only on a job the user may see that passes the filters.
  const estimates = () =>
    sql`select e.created_by_user_id, count(*), sum(e.price_cents), sum(e.cost_cents), sum(e.margin_cents)
      from estimates e join jobs on jobs.id = e.job_id
      where e.firm_id = ${firmId} and e.is_change_order = 0 and e.archived_at is null and ${inRange('e.created_at')}
      group by e.created_by_user_id`.execute(db);
  // An estimate line's price and a cost line's quantity and cost are only in the estimate's
  // `calculation` JSON, so these two baselines read them there, as their reports must.
  const json = (path: string, id: string, key: string) =>
    database.dialect.jsonNumber(sql`e.calculation`, [path, sql.ref(id), key]);
  const lines = () =>
    sql`select el.name, el.unit, count(*), sum(cast(el.quantity as numeric)),
        sum(${json('lines', 'el.id', 'price')}) from estimate_lines el
      join estimates e on e.id = el.estimate_id
      where e.firm_id = ${firmId} and ${inRange('e.created_at')} group by el.name, el.unit`.execute(db);
  const materials = () =>
    sql`select cl.name, cl.unit, count(*), sum(${json('cost_lines', 'cl.id', 'quantity')}),
        sum(${json('cost_lines', 'cl.id', 'cost')})
      from estimate_cost_lines cl join estimates e on e.id = cl.estimate_id
      where e.firm_id = ${firmId} and cl.type = 'material' and ${inRange('e.created_at')}
      group by cl.name, cl.unit`.execute(db);
  // The reports below aggregate other rows than their neighbours', so each has the plain SQL of
  // what it sums (the same rows, grouped as the report needs them, nothing placed in weeks or shaped).
  // The range's completed work orders by job, with the job's value: completed-work lists jobs.
  const completedWork = () =>
    sql`select count(*), sum(done.n), sum(coalesce(jobs.estimate_total_cents, jobs.estimated_value_cents, 0))
      from jobs join (select job_id, count(*) as n, max(completed_at), sum(completed_qty) from work_orders
        where firm_id = ${firmId} and is_hold = 0 and status = 'completed' and cancelled_at is null
        and ${inRange('completed_at')} group by job_id) done on done.job_id = jobs.id
      where jobs.firm_id = ${firmId}`.execute(db);
  // Invoices that count as billed: not draft, void or written off.
  const billedStatus = sql`status not in ('draft', 'void', 'uncollectible')`;
  const owedAt = `${END}T23:59:59.999999`;
  // What receivables sums: the invoices owed at the end by customer, and those billed and those
  // collected in the range (its summary's two totals).
  const receivables = async () => {
    await sql`select sum(amount_cents) from invoices where firm_id = ${firmId} and ${billedStatus}
      and coalesce(issued_at, created_at) >= ${`${START}T00:00:00`} and coalesce(issued_at, created_at) < ${owedAt}`.execute(
      db,
    );
    await sql`select sum(amount_cents) from invoices where firm_id = ${firmId} and status = 'paid'
      and paid_at >= ${`${START}T00:00:00`} and paid_at < ${owedAt}`.execute(db);
    return sql`select jobs.client_account_id, count(*), sum(invoices.amount_cents) from invoices
      join jobs on jobs.id = invoices.job_id
      where invoices.firm_id = ${firmId} and invoices.${billedStatus} and coalesce(invoices.issued_at, invoices.created_at) < ${owedAt}
      and (invoices.paid_at is null or invoices.paid_at >= ${owedAt}) group by jobs.client_account_id`.execute(db);
  };
  // Open invoices by due date, and the won jobs' last work day with what they are invoiced.
  const cashForecast = async () => {
    await sql`select due_date, sum(amount_cents) from invoices where firm_id = ${firmId} and ${billedStatus}
      and paid_at is null group by due_date`.execute(db);
    return sql`select jobs.id, days.last_day, coalesce(jobs.estimate_total_cents, jobs.estimated_value_cents, 0), billed.cents
      from jobs join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      join (select wo.job_id, max(wod.date) as last_day from work_order_days wod
        join work_orders wo on wo.id = wod.work_order_id where wo.firm_id = ${firmId} group by wo.job_id) days
        on days.job_id = jobs.id
      left join (select job_id, sum(amount_cents) as cents from invoices where firm_id = ${firmId} and ${billedStatus}
        group by job_id) billed on billed.job_id = jobs.id
      where jobs.firm_id = ${firmId} and stage.type = 'won'`.execute(db);
  };
  // Each won job with its costs and invoices (one GROUP BY each) beside its estimate.
  // Each won job with its cost and invoice sums, and the time entries its labor is paid from.
  const bidVsActual = async () => {
    await sql`select time_entries.job_id, count(*), sum(time_entries.pay_rate_cents) from time_entries
      join jobs on jobs.id = time_entries.job_id
      join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      where time_entries.firm_id = ${firmId} and time_entries.clock_out is not null and time_entries.voided_at is null
      and time_entries.pay_rate_cents is not null and stage.type = 'won' and ${inRange('jobs.decided_at')}
      group by time_entries.job_id`.execute(db);
    return sql`select jobs.id, jobs.estimate_total_cents, e.subtotal_cents, e.cost_cents, c.cents, i.cents
      from jobs join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      left join estimates e on e.id = jobs.estimate_id
      left join (select job_id, sum(amount_cents) as cents from job_costs where firm_id = ${firmId} group by job_id) c
        on c.job_id = jobs.id
      left join (select job_id, sum(amount_cents - tax_cents) as cents from invoices where firm_id = ${firmId}
        and ${billedStatus} group by job_id) i on i.job_id = jobs.id
      where jobs.firm_id = ${firmId} and stage.type = 'won' and ${inRange('jobs.decided_at')}`.execute(db);
  };
  // Its six measures, one aggregate each: jobs created, bid and decided, invoices issued and paid, time.
  const weeklySummary = async () => {
    await jobs('jobs.created_at')();
    await jobs('jobs.bid_at')();
    await jobs('jobs.decided_at')();
    await sql`select count(*), sum(amount_cents) from invoices where firm_id = ${firmId} and ${billedStatus}
      and ${inRange('issued_at')}`.execute(db);
    await sql`select count(*), sum(amount_cents) from invoices where firm_id = ${firmId} and status = 'paid'
      and ${inRange('paid_at')}`.execute(db);
    return time();
  };
  // The won jobs' estimated materials (their estimate's material cost lines) and entered material costs.
  const wonInRange = sql`jobs.firm_id = ${firmId} and stage.type = 'won' and ${inRange('jobs.decided_at')}`;
  const materialUsage = async () => {
    await sql`select lower(cl.name), lower(cl.unit), count(distinct jobs.id) from estimate_cost_lines cl
      join jobs on jobs.estimate_id = cl.estimate_id
      join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      where ${wonInRange} and cl.type = 'material' group by lower(cl.name), lower(cl.unit)`.execute(db);
    return sql`select lower(job_costs.description), count(*), sum(job_costs.amount_cents) from job_costs
      join jobs on jobs.id = job_costs.job_id
      join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      where ${wonInRange} and job_costs.cost_type = 'material' group by lower(job_costs.description)`.execute(db);
  };
  // The week holding 2026-06-15 (a Monday; the workspace's weeks start on Monday), its six measures.
  const weekGlance = async () => {
    const [from, to] = ['2026-06-15', '2026-06-21'];
    const inWeek = (col: string) => inRange(col, from, to);
    await sql`select date, count(*) from work_order_days where firm_id = ${firmId} and date >= ${from}
      and date <= ${to} group by date`.execute(db);
    await sql`select count(*) from work_orders where firm_id = ${firmId} and status = 'completed'
      and ${inWeek('completed_at')}`.execute(db);
    await sql`select count(*), sum(pay_rate_cents) from time_entries where firm_id = ${firmId}
      and clock_out is not null and ${inWeek('clock_in')}`.execute(db);
    await sql`select count(*) from proposals where firm_id = ${firmId} and ${inWeek('sent_at')}`.execute(db);
    await sql`select count(*), sum(coalesce(jobs.estimate_total_cents, jobs.estimated_value_cents, 0)) from jobs
      join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      where jobs.firm_id = ${firmId} and stage.type = 'won' and ${inWeek('jobs.decided_at')}`.execute(db);
    return sql`select count(*), sum(amount_cents) from invoices where firm_id = ${firmId} and ${billedStatus}
      and (${inWeek('issued_at')} or ${inWeek('paid_at')})`.execute(db);
  };
  // The counted cost lines of the won jobs' estimates (their cost and `included` read out of the
  // estimate's JSON, as won-cost-lines.ts does) by catalog item and type: what sub-utilization,
  // vendor-utilization and minority sum; sub-utilization also the won jobs' subcontract costs.
  const calc = sql`e.calculation`;
  const costLines = () =>
    sql`select cl.catalog_item_id, cl.type, count(*),
        sum(cast(round(${database.dialect.jsonNumber(calc, ['cost_lines', sql`cl.id`, 'cost'])} * 100) as bigint))
      from jobs join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      join estimate_cost_lines cl on cl.estimate_id = jobs.estimate_id
      join estimates e on e.id = jobs.estimate_id
      where ${wonInRange} and ${database.dialect.jsonTrue(calc, ['cost_lines', sql`cl.id`, 'included'])}
      group by cl.catalog_item_id, cl.type`.execute(db);
  const subUtilization = async () => {
    await costLines();
    return sql`select job_costs.cost_code, count(*), sum(job_costs.amount_cents) from job_costs
      join jobs on jobs.id = job_costs.job_id
      join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      where ${wonInRange} and job_costs.cost_type = 'subcontract' group by job_costs.cost_code`.execute(db);
  };
  // The jobs decided in the range by customer, and the range's invoices by customer.
  const topCustomers = async () => {
    await sql`select jobs.client_account_id, count(*), sum(coalesce(jobs.estimate_total_cents, jobs.estimated_value_cents, 0))
      from jobs join job_stages stage on stage.firm_id = jobs.firm_id and stage.key = jobs.status
      where jobs.firm_id = ${firmId} and ${inRange('jobs.decided_at')} group by jobs.client_account_id`.execute(db);
    return sql`select jobs.client_account_id, sum(invoices.amount_cents) from invoices join jobs on jobs.id = invoices.job_id
      where invoices.firm_id = ${firmId} and invoices.${billedStatus} and (${inRange('invoices.issued_at')} or ${inRange('invoices.paid_at')})
      group by jobs.client_account_id`.execute(db);
  };
  // June 2026's invoices, costs to the month's end and time entries, each by job.
  const monthEnd = async () => {
    const [from, to] = ['2026-06-01', '2026-06-30'];
    await sql`select job_id, sum(amount_cents - tax_cents) from invoices where firm_id = ${firmId} and ${billedStatus}
      and ${inRange('issued_at', from, to)} group by job_id`.execute(db);
    await sql`select job_id, cost_type, sum(amount_cents) from job_costs where firm_id = ${firmId} and date <= ${to}
      group by job_id, cost_type`.execute(db);
    return sql`select job_id, count(*), sum(pay_rate_cents) from time_entries where firm_id = ${firmId}
      and clock_out is not null and clock_in < ${`${to}T23:59:59.999999`} group by job_id`.execute(db);
  };
  // What data-dump sums: the range's jobs with their estimate's price, cost and margin, and their
  // invoices (billed and collected).
  const dataDump = async () => {
    await sql`select count(*), sum(coalesce(jobs.estimate_total_cents, jobs.estimated_value_cents, 0)),
        sum(e.price_cents), sum(e.cost_cents), sum(e.margin_cents)
      from jobs left join estimates e on e.id = jobs.estimate_id
      where jobs.firm_id = ${firmId} and ${inRange('jobs.created_at')}`.execute(db);
    return sql`select count(*), sum(invoices.amount_cents),
        sum(case when invoices.status = 'paid' then invoices.amount_cents else 0 end)
      from invoices join jobs on jobs.id = invoices.job_id
      where invoices.firm_id = ${firmId} and invoices.${billedStatus} and ${inRange('jobs.created_at')}`.execute(db);
  };
  const byKey: Record<string, () => Promise<unknown>> = {
    receivables,
    'data-dump': dataDump,
    'sub-utilization': subUtilization,
    'vendor-utilization': costLines,
    minority: costLines,
    'top-customers': topCustomers,
    'week-glance': weekGlance,
    'material-usage': materialUsage,
    'cash-forecast': cashForecast,
    'completed-work': completedWork,
    'bid-vs-actual': bidVsActual,
    'weekly-summary': weeklySummary,
    'labor-hours': time,
    'resource-utilization': days,
    'month-end-job-cost': monthEnd,
    'estimate-totals': estimates,
    'item-history': lines,
    'material-history': materials,
  };
  return (
    byKey[key] ?? jobs(basis === 'bid' ? 'jobs.bid_at' : basis === 'decided' ? 'jobs.decided_at' : 'jobs.created_at')
  );
}

/** The time `run` takes, in ms. */
async function timed(run: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

/**
 * The median of `rounds` timings of the report and of its baseline, taken in turn (report,
 * baseline, report …): the machine's speed drifts by 2× within minutes on a shared host, and
 * timing all of one before all of the other put the drift into their ratio.
 */
async function medians(rounds: number, report: () => Promise<unknown>, baseline: () => Promise<unknown>) {
  const reportTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    reportTimes.push(await timed(report));
    baselineTimes.push(await timed(baseline));
  }
  return { report: median(reportTimes), base: median(baselineTimes) };
}

async function main(): Promise<string> {
  const url = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
  const { database, describe, drop } = await openBenchDatabase({ url, label: 'reports' });
  dropOnInterrupt(drop);
  try {
    console.error(`engine: ${describe}`);
    const { firmId, ownerId, key } = await benchWorkspace(database);
    const firm = await database.db
      .selectFrom('firms')
      .select('settings')
      .where('id', '=', firmId)
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable('firms')
      .set({
        settings: JSON.stringify({
          ...JSON.parse(firm.settings),
          operations_enabled: true,
          crew_scheduling_enabled: true,
        }),
        job_types: JSON.stringify(['Paving', 'Sealcoating', 'Striping']),
        divisions: JSON.stringify([
          { key: 'paving', name: 'Paving' },
          { key: 'seal', name: 'Sealcoating' },
        ]),
      })
      .where('id', '=', firmId)
      .execute();
    const statements = process.env.BENCH_STATEMENTS ? timeStatements(database) : null;
    const app = await buildApp(database, {
      adminToken: null,
      rateLimit: { max: 1e9, windowMs: 1000 },
      logLevel: process.env.BENCH_LOG ? 'error' : false,
    });
    const get = async (path: string) => {
      const res = await app.inject({ method: 'GET', url: path, headers: { 'x-api-key': key } });
      if (res.statusCode !== 200) warnOrFail(console.error, `${path}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    };
    const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
    const listed = (JSON.parse((await get('/v1/reports')).body).data as { key: string; date_basis: string }[]).filter(
      (r) => only.length === 0 || only.includes(r.key),
    );
    const pathOf = (r: string) =>
      r === 'labor-hours'
        ? '/v1/reports/labor-hours?start=2026-06-01&end=2026-06-28&approved_only=false'
        : r === 'month-end-job-cost'
          ? '/v1/reports/month-end-job-cost?month=2026-06'
          : ['kpi', 'weekly-sales', 'week-glance', 'cash-forecast'].includes(r)
            ? `/v1/reports/${r}?end=2026-06-15`
            : `/v1/reports/${r}?start=${START}&end=${END}`;

    const measured = new Map<string, { report: number; baseline: number }[]>();
    let seeded = 0;
    for (const size of [SMALL, LARGE]) {
      const t0 = performance.now();
      const before = await database.db
        .selectFrom('jobs')
        .select(sql<number>`coalesce(max(id), 0)`.as('id'))
        .executeTakeFirstOrThrow();
      await insertJobs(database, firmId, ownerId, size - seeded, { namePrefix: 'Report job' });
      await spread(database, firmId, ownerId, Number(before.id) + 1);
      seeded = size;
      // Rows written in bulk, then planned at once: PostgreSQL's autovacuum would have vacuumed and
      // analyzed the tables within a minute. Without statistics its planner guessed a handful of
      // rows (a nested loop of 400,000 probes for the cap's 20,000th job); without the visibility
      // map no index answers alone. The seeding updates every job twice and every estimate once
      // after inserting it, which leaves two dead copies of each job: vacuum frees their space but
      // keeps it, so every scan of jobs read 109 MB for 41 MB of live rows. A table that grew by
      // everyday writes reuses the space it freed; rewriting these two (VACUUM FULL) gives them the
      // size such a table of this many rows has.
      if (database.dialect.engine === 'postgres') {
        await sql`vacuum full jobs, estimates`.execute(database.db);
        await sql`vacuum analyze`.execute(database.db);
      }
      console.error(`seeded ${fmt(size)} jobs in ${fmt((performance.now() - t0) / 1000, 1)} s`);
      for (const r of listed) {
        const baseline = baselineOf(database, firmId, r.key, r.date_basis);
        const path = pathOf(r.key);
        await get(path); // warm-up: plans and compiled schemas
        await baseline();
        const { report, base } = await medians(ROUNDS, () => get(path), baseline);
        const list = measured.get(r.key) ?? [];
        list.push({ report, baseline: base });
        measured.set(r.key, list);
        console.error(`${fmt(size)} jobs: ${r.key} ${ms(report)} ms, baseline ${ms(base)} ms (load ${loadNow()})`);
        if (statements && size === LARGE) {
          statements.take();
          await get(path);
          for (const s of statements.take())
            console.error(`  ${ms(s.ms).padStart(9)} ms ${String(s.rows).padStart(6)} rows  ${s.text}`);
        }
      }
    }
    await app.close();
    const rows: string[] = [];
    let metRatio = 0;
    let metGrowth = 0;
    for (const [reportKey, [small, large]] of measured) {
      const ratio = large!.report / large!.baseline;
      const growth = large!.report / small!.report;
      const rowsGrowth = large!.baseline / small!.baseline;
      if (ratio <= 2) metRatio++;
      if (growth <= Math.max(rowsGrowth, 1) * 1.1) metGrowth++;
      rows.push(
        `| ${reportKey} | ${ms(small!.report)} | ${ms(large!.report)} | ${ms(large!.baseline)} | ${ratio.toFixed(2)} | ${growth.toFixed(2)} | ${rowsGrowth.toFixed(2)} |`,
      );
    }
    return [
      `Owner reports benchmark${MODE_LABEL}, ${new Date().toISOString().slice(0, 10)}, ${revision()}`,
      `${describe}; ${fmt(SMALL)} then ${fmt(LARGE)} jobs; median of ${ROUNDS} runs each, report and baseline in turn (in process, app.inject)`,
      '',
      `| Report | ms at ${fmt(SMALL)} | ms at ${fmt(LARGE)} | baseline ms at ${fmt(LARGE)} | ÷ baseline (≤ 2) | ${fmt(LARGE)} ÷ ${fmt(SMALL)} | baseline's growth |`,
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      `Within 2× of the baseline: ${metRatio} of ${measured.size}. Growing no faster than the baseline (10% slack): ${metGrowth} of ${measured.size}.`,
    ].join('\n');
  } finally {
    if (process.env.BENCH_KEEP) {
      await database.close();
      console.error(`kept: ${describe}`);
    } else await drop();
  }
}

const report = await main();
console.log(report);
saveReport('reports.md', report);
