// Re-bids (document 2, "Re-bid and re-bid history", "Re-bid and follow-up sequence", "Re-bids,
// reminders, follow-ups"; docs/decisions/operations-rebids.md). A re-bid is derived, never stored:
// one site and one cycle whose latest work (a history record: hand-added, or a completed work
// order) plus the cycle's years comes due. What the office did with it (snoozed, not doing, its
// job) is kept in rebid_states against that latest work (for_done_on), so newer work starts the
// re-bid afresh. A user who sees only their own jobs acts only on re-bids of sites whose jobs they
// own or are assigned to; any other pair is "not a re-bid" to them (404), as another workspace's.
import type { Transaction } from 'kysely';
import type { DB } from '#db/tables.ts';
import { accountTaskObjectOf, createJobIn, findLocation, insertAccountTask, locationNotFound } from '#crm/index.ts';
import type { Executor } from '#db/dialect.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { ApiError, conflict, forbidden, invalidField, notFound, unprocessable } from '#platform/errors.ts';
import { assertDeletionAllowed, assertOfficeUser } from '#platform/guards.ts';
import { dollarsToCents } from '#platform/money.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { todayIn } from '#platform/time-zone.ts';
import {
  cycleNamed,
  findCycle,
  findHistory,
  findState,
  isOwnSite,
  listCycles as cycleRows,
  listPairs,
  type PairRow,
  salespersonOf,
} from './repo.ts';
import { addDaysTo, addYears, DUE_WINDOW_DAYS, siteOfKey, STARTER_CYCLES } from './rules.ts';
import type {
  CreateRebidHistoryInput,
  CreateRebidJobsInput,
  FollowUpRebidInput,
  NotDoingRebidInput,
  RebidJobItemObject,
  RebidListFilter,
  RebidObject,
  RebidPairInput,
  SnoozeRebidInput,
  UpdateRebidCycleInput,
} from './schemas.ts';
import { cycleObject, historyObject, rebidObject } from './serialize.ts';

type Trx = Transaction<DB>;

const cycleNotFound = () => notFound('Re-bid cycle not found');
const historyNotFound = () => notFound('Re-bid history record not found');
const notARebid = (pairs: RebidPairInput[]) =>
  notFound(pairs.length === 1 ? 'Re-bid not found' : 'Listed items are not re-bids', {
    code: 'not_a_rebid',
    message: `Not a re-bid of this workspace: ${pairs.map((p) => `${p.key} with cycle ${p.cycle_id}`).join('; ')}`,
    items: pairs.map((p) => ({ key: p.key, cycle_id: p.cycle_id })),
  });

const today = (ctx: ServiceContext) => todayIn(ctx.auth.firm.timezone);

// ---- cycles ---------------------------------------------------------------------------------

/** A new workspace's cycles (src/area.ts, workspaceStarters; migration 033 gave existing ones the same). */
export async function giveStarterCycles(trx: Trx, firmId: number): Promise<void> {
  const at = now();
  await trx
    .insertInto('rebid_cycles')
    .values(STARTER_CYCLES.map((c) => ({ firm_id: firmId, ...c, created_at: at, updated_at: at })))
    .execute();
}

export async function listCycles(ctx: ServiceContext) {
  return { data: (await cycleRows(ctx.database.db, ctx.auth.firm.id)).map(cycleObject) };
}

/** Changes how often a service comes due; every re-bid of the cycle moves with it. Office users only. */
export async function updateCycle(ctx: ServiceContext, id: number, input: UpdateRebidCycleInput) {
  assertOfficeUser(ctx, 'Only office users change how often services come due');
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = await findCycle(trx, ctx.auth.firm.id, id);
    if (!row) throw cycleNotFound();
    if (input.every_years === undefined || row.every_years === input.every_years) return cycleObject(row);
    const changed = await trx
      .updateTable('rebid_cycles')
      .set({ every_years: input.every_years, updated_at: now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return cycleObject(changed);
  });
}

// ---- history --------------------------------------------------------------------------------

/** A site of the workspace the key's user acts on (a merged-away id resolves to the kept site). */
async function ownSiteOr404(ctx: ServiceContext, db: Executor, id: number) {
  const site = await findLocation(db, ctx.auth.firm.id, id);
  if (!site || !(await isOwnSite(db, ctx.auth.firm.id, ctx.auth.user, site.id))) throw locationNotFound();
  return site;
}

export async function addHistory(ctx: ServiceContext, input: CreateRebidHistoryInput) {
  const firmId = ctx.auth.firm.id;
  if ((input.cycle_id === undefined) === (input.new_service === undefined))
    throw invalidField(
      input.cycle_id === undefined ? 'cycle_id' : 'new_service',
      'Send cycle_id or new_service, not both and not neither',
    );
  if (input.new_service_every_years !== undefined && input.new_service === undefined)
    throw invalidField('new_service_every_years', 'new_service_every_years goes with new_service');
  if (input.done_on > today(ctx)) throw invalidField('done_on', 'done_on cannot be in the future');
  return inWorkspaceTransaction(ctx, async (trx) => {
    const site = await ownSiteOr404(ctx, trx, input.location_id);
    let cycleId: number;
    if (input.cycle_id !== undefined) {
      const cycle = await findCycle(trx, firmId, input.cycle_id);
      if (!cycle) throw cycleNotFound();
      cycleId = cycle.id;
    } else {
      const service = input.new_service!.trim().replace(/\s+/g, ' ');
      const existing = await cycleNamed(trx, firmId, service);
      const at = now();
      cycleId =
        existing?.id ??
        (
          await trx
            .insertInto('rebid_cycles')
            .values({
              firm_id: firmId,
              service,
              every_years: input.new_service_every_years ?? 2,
              created_at: at,
              updated_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
    }
    const { id } = await trx
      .insertInto('rebid_history')
      .values({
        firm_id: firmId,
        location_id: site.id,
        cycle_id: cycleId,
        done_on: input.done_on,
        amount_cents: input.amount == null ? null : dollarsToCents(input.amount),
        note: input.note?.trim() || null,
        source: 'manual',
        work_order_id: null,
        created_by_user_id: ctx.auth.user.id,
        created_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return historyObject((await findHistory(trx, firmId, id))!);
  });
}

/** Removes hand-added work; work recorded from a completed work order stays (409). */
export async function deleteHistory(ctx: ServiceContext, id: number): Promise<void> {
  assertDeletionAllowed(ctx);
  await inWorkspaceTransaction(ctx, async (trx) => {
    const row = await findHistory(trx, ctx.auth.firm.id, id);
    if (!row || !(await isOwnSite(trx, ctx.auth.firm.id, ctx.auth.user, row.location_id))) throw historyNotFound();
    if (row.source !== 'manual')
      throw conflict('Work from a job cannot be removed', {
        code: 'work_from_job',
        message: `This work was recorded when work order ${row.work_order_id} was completed; only hand-added work can be removed`,
      });
    await trx.deleteFrom('rebid_history').where('id', '=', id).execute();
  });
}

// ---- the list -------------------------------------------------------------------------------

export async function listRebids(ctx: ServiceContext, filter: RebidListFilter, page: Page) {
  const day = today(ctx);
  const status = filter.status ?? 'due';
  const within = filter.due_within_days ?? (status === 'due' ? DUE_WINDOW_DAYS : undefined);
  const last = within === undefined ? null : addDaysTo(day, within);
  const pairs = await listPairs(ctx.database.db, ctx.auth.firm.id, ctx.auth.user, { locationId: filter.location_id });
  const rebids = pairs
    .map((p) => rebidObject(p, day))
    .filter((r) => {
      if (last !== null && r.due_on > last) return false;
      if (status === 'all') return true;
      if (status === 'due') return r.status === 'due' || r.status === 'upcoming';
      return r.status === status;
    })
    .sort(
      (a, b) =>
        a.due_on.localeCompare(b.due_on) ||
        a.location.name.localeCompare(b.location.name) ||
        a.location_id - b.location_id ||
        a.cycle_id - b.cycle_id,
    );
  return listEnvelope(rebids.slice(page.offset, page.offset + page.limit), rebids.length, page);
}

// ---- actions --------------------------------------------------------------------------------

/** The pair as a re-bid the key's user acts on, or undefined. */
async function pairOf(ctx: ServiceContext, db: Executor, pair: RebidPairInput): Promise<PairRow | undefined> {
  const siteId = siteOfKey(pair.key);
  if (siteId === null) return undefined;
  const site = await findLocation(db, ctx.auth.firm.id, siteId);
  if (!site) return undefined;
  const [row] = await listPairs(db, ctx.auth.firm.id, ctx.auth.user, { locationId: site.id, cycleId: pair.cycle_id });
  return row;
}

async function rebidOr404(ctx: ServiceContext, db: Executor, pair: RebidPairInput): Promise<PairRow> {
  const row = await pairOf(ctx, db, pair);
  if (!row) throw notARebid([pair]);
  return row;
}

type Choice = {
  status: 'open' | 'snoozed' | 'not_doing';
  snooze_until: string | null;
  not_doing_reason: string | null;
  not_doing_note: string | null;
};

/**
 * Writes the office's choice for the pair's current round. `jobId` undefined keeps the round's
 * job; a state left from older work is started afresh.
 */
async function saveState(trx: Trx, firmId: number, p: PairRow, choice: Choice | null, jobId?: number): Promise<void> {
  const at = now();
  const existing = await findState(trx, firmId, p.location_id, p.cycle_id);
  const sameRound = existing?.for_done_on === p.last_done_on;
  const keep: Choice =
    existing && sameRound
      ? {
          status: existing.status,
          snooze_until: existing.snooze_until,
          not_doing_reason: existing.not_doing_reason,
          not_doing_note: existing.not_doing_note,
        }
      : { status: 'open', snooze_until: null, not_doing_reason: null, not_doing_note: null };
  const values = {
    for_done_on: p.last_done_on,
    ...(choice ?? keep),
    rebid_job_id: jobId ?? (sameRound ? (existing?.rebid_job_id ?? null) : null),
    updated_at: at,
  };
  if (existing) await trx.updateTable('rebid_states').set(values).where('id', '=', existing.id).execute();
  else
    await trx
      .insertInto('rebid_states')
      .values({ firm_id: firmId, location_id: p.location_id, cycle_id: p.cycle_id, ...values })
      .execute();
}

async function reread(ctx: ServiceContext, trx: Trx, p: PairRow): Promise<RebidObject> {
  const [row] = await listPairs(trx, ctx.auth.firm.id, ctx.auth.user, {
    locationId: p.location_id,
    cycleId: p.cycle_id,
  });
  return rebidObject(row!, today(ctx));
}

async function choose(ctx: ServiceContext, pair: RebidPairInput, choice: Choice): Promise<RebidObject> {
  return inWorkspaceTransaction(ctx, async (trx) => {
    const p = await rebidOr404(ctx, trx, pair);
    await saveState(trx, ctx.auth.firm.id, p, choice);
    return reread(ctx, trx, p);
  });
}

/** Hides the re-bid until `until`: after today (workspace time zone), at most two years out. */
export async function snoozeRebid(ctx: ServiceContext, input: SnoozeRebidInput) {
  const day = today(ctx);
  if (input.until <= day) throw invalidField('until', `until must be after today (${day})`);
  if (input.until > addYears(day, 2)) throw invalidField('until', 'until must be at most two years out');
  return choose(ctx, input, {
    status: 'snoozed',
    snooze_until: input.until,
    not_doing_reason: null,
    not_doing_note: null,
  });
}

export async function notDoingRebid(ctx: ServiceContext, input: NotDoingRebidInput) {
  const note = input.note?.trim() || null;
  if (input.reason === 'other' && note === null) throw invalidField('note', 'reason other needs a note');
  return choose(ctx, input, {
    status: 'not_doing',
    snooze_until: null,
    not_doing_reason: input.reason,
    not_doing_note: note,
  });
}

/** Undoes a snooze or not-doing (the round's job stays linked). */
export async function resetRebid(ctx: ServiceContext, input: RebidPairInput) {
  return choose(ctx, input, { status: 'open', snooze_until: null, not_doing_reason: null, not_doing_note: null });
}

const rebidName = (service: string, siteName: string) => `${service} re-bid: ${siteName}`.slice(0, 200);

/** A company follow-up on the site's customer about the re-bid; the site needs a company (422). */
export async function followUpRebid(ctx: ServiceContext, input: FollowUpRebidInput) {
  const firmId = ctx.auth.firm.id;
  const { rebid, taskId } = await inWorkspaceTransaction(ctx, async (trx) => {
    const p = await rebidOr404(ctx, trx, input);
    if (p.client_account_id === null)
      throw unprocessable('Property has no company', {
        code: 'company_required',
        missing_fields: ['client_account_id'],
        message:
          'Follow-ups hang on a company and this property has none: give the site a customer (PATCH /v1/locations/{id} with client_account_id) first',
      });
    const site = (await findLocation(trx, firmId, p.location_id))!;
    const assignee = input.assigned_to_user_id ?? (await salespersonOf(trx, firmId, site)) ?? ctx.auth.user.id;
    const taskId = await insertAccountTask(ctx, trx, {
      client_account_id: p.client_account_id,
      title: input.title ?? rebidName(p.service, p.location_name),
      task_type: input.task_type ?? 'call',
      due_date: input.due,
      assigned_to_user_id: assignee,
    });
    return { rebid: await reread(ctx, trx, p), taskId };
  });
  return { rebid, task: await accountTaskObjectOf(ctx, ctx.database.db, taskId) };
}

/**
 * Makes a job for each listed re-bid (named after its service and site, for the site and its
 * customer), each in its own transaction so a bad item never blocks the others. An item whose
 * round already has its job answers that job. 404 only when no item is a re-bid; otherwise the
 * non-re-bids are failed items.
 */
export async function createRebidJobs(ctx: ServiceContext, input: CreateRebidJobsInput) {
  if (ctx.auth.settings.jobs_from_connected_system)
    throw forbidden('Jobs come from a connected system', {
      code: 'jobs_from_connected_system',
      message: "This workspace's jobs come from a connected system and cannot be created here",
    });
  const firmId = ctx.auth.firm.id;
  const db = ctx.database.db;
  const found = await Promise.all(input.items.map((item) => pairOf(ctx, db, item)));
  if (found.every((p) => p === undefined)) throw notARebid(input.items);
  const items: RebidJobItemObject[] = [];
  for (const [i, item] of input.items.entries()) {
    const base = { key: item.key, cycle_id: item.cycle_id };
    if (found[i] === undefined) {
      items.push({ ...base, result: 'failed', rebid_job_id: null, rebid_job_name: null, error: 'Not a re-bid' });
      continue;
    }
    try {
      items.push(
        await inWorkspaceTransaction(ctx, async (trx) => {
          const p = await rebidOr404(ctx, trx, item);
          const state = await findState(trx, firmId, p.location_id, p.cycle_id);
          const jobOf = (id: number) =>
            trx
              .selectFrom('jobs')
              .select(['id', 'name'])
              .where('firm_id', '=', firmId)
              .where('id', '=', id)
              .executeTakeFirst();
          if (state?.for_done_on === p.last_done_on && state.rebid_job_id !== null) {
            const job = await jobOf(state.rebid_job_id);
            if (job)
              return {
                ...base,
                result: 'existing' as const,
                rebid_job_id: job.id,
                rebid_job_name: job.name,
                error: null,
              };
          }
          const { id } = await createJobIn(ctx, trx, {
            name: rebidName(p.service, p.location_name),
            address: p.location_address,
            client_account_id: p.client_account_id,
            source: 're-bid',
            allow_duplicate_name: true,
          });
          await saveState(trx, firmId, p, null, id);
          const job = (await jobOf(id))!;
          return { ...base, result: 'created' as const, rebid_job_id: job.id, rebid_job_name: job.name, error: null };
        }),
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      items.push({ ...base, result: 'failed', rebid_job_id: null, rebid_job_name: null, error: err.message });
    }
  }
  const count = (r: RebidJobItemObject['result']) => items.filter((x) => x.result === r).length;
  return { created: count('created'), existing: count('existing'), failed: count('failed'), items };
}
