// Job rules: upsert on external_ref, the duplicate-name guard, workspace-required fields,
// customer and site linking, stage moves with their events, delete and merge.
import { type Expression, sql, type Transaction } from 'kysely';
import type { DB, Job, JobStage } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '#platform/errors.ts';
import { assertDeletionAllowed, assertOfficeUser } from '#platform/guards.ts';
import { can } from '#platform/permissions.ts';
import { fillBlanks, isBlank, externalRefHeld } from '#platform/records.ts';
import { addressParts } from '#platform/address-parts.ts';
import { decidedAtAfter } from './report-columns.ts';
import { removeObjects } from '#platform/storage/cleanup.ts';
import { now } from '#platform/time.ts';
import { objectsGoingWith } from '#src/area.ts';
import { jobTypesOf } from '#platform/workspace.ts';
import { stagesOf } from '#crm/job-stages/repo.ts';
import { findActiveUser } from '#workspace/index.ts';
import { recordJobCreated, recordJobStatusChanged, recordJobUpdated } from './events.ts';
import { assertDateOrder, jobColumns, stageFor } from './fields.ts';
import type { JobInput } from './schemas.ts';
import { customerColumns, siteColumns, siteForAddress } from './links.ts';
import { moveJobRecords } from './merge-movers.ts';
import { onJobStageChanged } from './stage-change.ts';
import {
  adjustJobCount,
  countJobs,
  extraAssignees,
  findJobByName,
  findJobByRef,
  findJobRow,
  listJobRows,
  type JobFilter,
} from './repo.ts';
import { findVisibleJob } from './access.ts';
import { jobObject } from './serialize.ts';

type Trx = Transaction<DB>;
export const jobNotFound = () => notFound('Job not found');

// ---- reads ---------------------------------------------------------------------------------

export async function getJob(ctx: ServiceContext, id: number, includeAssignees = false) {
  const row = await findJobRow(ctx.database.db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw jobNotFound();
  const extra = includeAssignees ? ((await extraAssignees(ctx.database.db, [id])).get(id) ?? []) : undefined;
  return jobObject(row, extra);
}

/**
 * The job a write just saved, as written. A member who sees only their own jobs may hand a job
 * to someone else; the write stands and the answer still shows the record they wrote.
 */
export async function getWrittenJob(ctx: ServiceContext, id: number) {
  const row = await findJobRow(ctx.database.db, ctx.auth.firm.id, id, null);
  if (!row) throw jobNotFound();
  return jobObject(row);
}

export async function listJobs(
  ctx: ServiceContext,
  filter: Omit<JobFilter, 'engine'>,
  includeAssignees: boolean,
  limit: number,
  offset: number,
) {
  const f = { ...filter, engine: ctx.database.dialect.engine };
  const [rows, total] = await Promise.all([
    listJobRows(ctx.database.db, ctx.auth.firm.id, ctx.auth.user, f, limit, offset),
    countJobs(ctx.database.db, ctx.auth.firm.id, ctx.auth.user, f),
  ]);
  const extra = includeAssignees
    ? await extraAssignees(
        ctx.database.db,
        rows.map((r) => r.id),
      )
    : undefined;
  return { data: rows.map((r) => jobObject(r, extra ? (extra.get(r.id) ?? []) : undefined)), total };
}

// ---- shared write steps --------------------------------------------------------------------

async function assertAssignable(trx: Trx, firmId: number, userId: number): Promise<void> {
  if (!(await findActiveUser(trx, firmId, userId))) {
    throw notFound('assigned_to_user_id does not match a user in this workspace', { field: 'assigned_to_user_id' });
  }
}

async function assertRefFree(trx: Trx, firmId: number, ref: string, selfId: number | null): Promise<void> {
  const holder = await findJobByRef(trx, firmId, ref);
  if (holder && holder.id !== selfId) {
    throw externalRefHeld(ref, { type: 'job', id: holder.id, name: holder.name });
  }
}

/**
 * The next free job number of the workspace (numbers typed by hand are skipped): the counter taken
 * and moved on in one statement that also says whether a job already holds the number, so the
 * usual case is one round trip under the workspace lock; then moved past any number held.
 */
async function allocateJobNumber(trx: Trx, firmId: number): Promise<number> {
  const held = (number: Expression<number>) =>
    trx.selectFrom('jobs').select('id').where('firm_id', '=', firmId).where('job_number', '=', number);
  const taken = await trx
    .updateTable('firms')
    .set((eb) => ({ next_job_number: eb('next_job_number', '+', 1) }))
    .where('id', '=', firmId)
    .returning((eb) => ['next_job_number', eb.exists(held(eb('firms.next_job_number', '-', 1))).as('held')])
    .executeTakeFirstOrThrow();
  let n = taken.next_job_number - 1;
  if (!taken.held) return n; // false, or 0 on SQLite
  do n++;
  while (await held(sql.val(n)).executeTakeFirst());
  await trx
    .updateTable('firms')
    .set({ next_job_number: n + 1 })
    .where('id', '=', firmId)
    .execute();
  return n;
}

const REQUIRED_FIELD_PRESENT: Record<string, (job: Partial<Job>, input: JobInput) => boolean> = {
  address: (job) => !isBlank(job.address),
  company: (job) => !isBlank(job.company) || job.client_account_id != null,
  job_type: (job) => !isBlank(job.job_type),
  // The API's default source does not satisfy a workspace that asks where jobs come from.
  source: (_job, input) => !isBlank(input.source),
  contact_email: (job) => !isBlank(job.contact_email),
};

/**
 * Saves `changes` to the job when any differ (a change that is not a stage move), bumping
 * updated_at and recording job_updated. Returns whether anything changed.
 */
export async function saveJobChanges(trx: Trx, job: Job, changes: Partial<Job>): Promise<boolean> {
  const changed = (Object.keys(changes) as (keyof Job)[]).filter((k) => changes[k] !== job[k]);
  if (changed.length === 0) return false;
  await trx
    .updateTable('jobs')
    .set({ ...changes, ...withAddressParts(changes), updated_at: now() })
    .where('id', '=', job.id)
    .execute();
  await recordJobUpdated(trx, job.firm_id, job.id, job.status, changed as string[]);
  return true;
}

/**
 * Applies `input` to `existing` with the update rules: only sent fields change, links follow the
 * customer and address, a stage change records job_status_changed (and the business events it
 * derives), any other change job_updated, never both. Returns whether anything changed.
 */
async function applyUpdate(
  ctx: ServiceContext,
  trx: Trx,
  existing: Job,
  input: JobInput,
  stages: JobStage[],
): Promise<boolean> {
  const firmId = ctx.auth.firm.id;
  const cols = jobColumns(input, jobTypesOf(ctx.auth.firm), stages);
  assertDateOrder(
    cols.start_date !== undefined ? cols.start_date : existing.start_date,
    cols.end_date !== undefined ? cols.end_date : existing.end_date,
  );
  if (cols.external_ref) await assertRefFree(trx, firmId, cols.external_ref, existing.id);
  if (cols.assigned_to_user_id !== undefined && cols.assigned_to_user_id !== existing.assigned_to_user_id) {
    await assertAssignable(trx, firmId, cols.assigned_to_user_id);
  }
  const customerChanging =
    input.client_account_id !== undefined ||
    input.client_account_external_ref !== undefined ||
    (input.company !== undefined && cols.company !== existing.company);
  if (customerChanging)
    Object.assign(
      cols,
      await customerColumns(trx, firmId, input, input.company === undefined ? undefined : cols.company),
    );
  if (cols.address !== undefined && cols.address !== existing.address) {
    if (cols.address === null) cols.location_id = null;
    else {
      const site = await siteForAddress(
        trx,
        firmId,
        ctx.auth.settings,
        cols.address,
        cols.client_account_id !== undefined ? cols.client_account_id : existing.client_account_id,
      );
      cols.location_id = site?.id ?? null;
      if (site) Object.assign(cols, await siteColumns(trx, firmId, { ...existing, ...cols }, site));
    }
  }
  if (cols.status === undefined || cols.status === existing.status) return saveJobChanges(trx, existing, cols);
  const fromStage = stageFor(stages, existing.status);
  const toStage = stageFor(stages, cols.status);
  const at = now();
  const decidedAt = decidedAtAfter(fromStage, toStage, at);
  await trx
    .updateTable('jobs')
    .set({
      ...cols,
      ...withAddressParts(cols),
      ...(decidedAt === undefined ? {} : { decided_at: decidedAt }),
      updated_at: at,
    })
    .where('id', '=', existing.id)
    .execute();
  await adjustJobCount(trx, firmId, existing.status, -1);
  await adjustJobCount(trx, firmId, cols.status, 1);
  await recordJobStatusChanged(trx, firmId, existing.id, fromStage, toStage);
  await onJobStageChanged(trx, ctx.auth, existing.id, fromStage, toStage);
  return true;
}

// ---- create, update, move ------------------------------------------------------------------

export function createJob(ctx: ServiceContext, input: JobInput): Promise<{ id: number; created: boolean }> {
  return inWorkspaceTransaction(ctx, (trx) => createJobIn(ctx, trx, input));
}

/**
 * Creates (or, with a matching external_ref, updates) a job in `trx`, a workspace transaction the
 * caller holds (lead intake opens its job this way).
 */
export async function createJobIn(
  ctx: ServiceContext,
  trx: Trx,
  input: JobInput,
  /** The workspace's stages, when the caller has read them in this transaction already. */
  knownStages?: JobStage[],
): Promise<{ id: number; created: boolean }> {
  const firmId = ctx.auth.firm.id;
  {
    const stages = knownStages ?? (await stagesOf(ctx, trx));
    if (input.external_ref) {
      const match = await findJobByRef(trx, firmId, input.external_ref);
      if (match) {
        if (!(await findVisibleJob(trx, firmId, match.id, ctx.auth.user)))
          await assertRefFree(trx, firmId, input.external_ref, null);
        const { allow_duplicate_name: _ignored, ...rest } = input;
        await applyUpdate(ctx, trx, match, rest, stages);
        return { id: match.id, created: false };
      }
    }
    if (input.name === undefined || input.name.trim() === '') throw badRequest('name is required', { field: 'name' });

    const cols = jobColumns(
      { status: 'lead', priority: 'normal', source: 'api', ...input },
      jobTypesOf(ctx.auth.firm),
      stages,
    );
    assertDateOrder(cols.start_date, cols.end_date);
    const owner = input.assigned_to_user_id ?? defaultAssignee(ctx);
    if (input.assigned_to_user_id !== undefined) await assertAssignable(trx, firmId, owner);
    Object.assign(cols, await customerColumns(trx, firmId, input, cols.company));

    if (cols.address) {
      const site = await siteForAddress(trx, firmId, ctx.auth.settings, cols.address, cols.client_account_id ?? null);
      if (site)
        Object.assign(
          cols,
          await siteColumns(
            trx,
            firmId,
            { address: cols.address, client_account_id: cols.client_account_id ?? null, company: cols.company ?? null },
            site,
          ),
        );
    }
    // Checked after linking: a customer taken from the site counts as company.
    const missing = ctx.auth.settings.required_job_fields.filter((f) => !REQUIRED_FIELD_PRESENT[f](cols, input));
    if (missing.length > 0) {
      throw unprocessable('Missing required fields', {
        message: `This workspace requires ${missing.join(', ')} on new jobs`,
        code: 'missing_required_fields',
        missing_fields: missing,
      });
    }
    if (!input.external_ref && !input.allow_duplicate_name) {
      const twin = await findJobByName(trx, firmId, cols.name_key!);
      if (twin) {
        throw conflict('Duplicate job name', {
          message: `A job named "${twin.name}" already exists; send allow_duplicate_name: true to create another`,
          code: 'duplicate_name',
          duplicate_job_id: twin.id,
        });
      }
    }
    const t = now();
    const job = await trx
      .insertInto('jobs')
      .values({
        firm_id: firmId,
        team_id: null,
        name: cols.name!,
        name_key: cols.name_key!,
        company: null,
        contact_name: null,
        contact_email: null,
        contact_phone: null,
        bill_to_name: null,
        bill_to_email: null,
        address: null,
        description: null,
        notes: null,
        job_type: null,
        status: cols.status!,
        source: null,
        priority: cols.priority!,
        estimated_value_cents: null,
        probability: null,
        start_date: null,
        end_date: null,
        next_follow_up: null,
        measurement_count: 0,
        client_account_id: null,
        location_id: null,
        external_ref: null,
        custom_fields: '{}',
        accounting_sync_error: null,
        assigned_to_user_id: owner,
        crm_deal_id: null,
        crm_contact_id: null,
        crm_company_id: null,
        job_number: await allocateJobNumber(trx, firmId),
        accounting_job_number: null,
        own_property_reference: null,
        external_work_order_number: null,
        description_customer_visible: 0,
        bid_due_date: null,
        customer_type: null,
        property_type: null,
        bond_required: null,
        liquidated_damages: null,
        davis_bacon: null,
        liquidated_damages_per_day_cents: null,
        linked_contact_id: null,
        operations_division: null,
        operations_assignee_user_id: null,
        created_at: t,
        updated_at: t,
        ...cols,
        ...withAddressParts(cols),
        decided_at: decidedAtAfter(null, stageFor(stages, cols.status!), t) ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await adjustJobCount(trx, firmId, cols.status!, 1);
    await recordJobCreated(trx, firmId, job.id, stageFor(stages, cols.status!));
    return { id: job.id, created: true };
  }
}

/** A write of the address also writes the ZIP and city read from it (report-columns.ts). */
const withAddressParts = (changes: Partial<Job>) =>
  changes.address === undefined ? {} : addressParts(changes.address);

/** The key's creator owns new jobs; when they have left, the workspace owner does. */
function defaultAssignee(ctx: ServiceContext): number {
  if (ctx.auth.user.removed_at === null) return ctx.auth.user.id;
  return ctx.auth.firm.owner_user_id ?? ctx.auth.user.id;
}

export async function updateJob(ctx: ServiceContext, id: number, input: JobInput): Promise<void> {
  const firmId = ctx.auth.firm.id;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const existing = await findVisibleJob(trx, firmId, id, ctx.auth.user);
    if (!existing) throw jobNotFound();
    await applyUpdate(ctx, trx, existing, input, await stagesOf(ctx, trx));
  });
}

/** Moves `existing` to the stage `status` in the caller's workspace transaction (a lead's convert). */
export async function moveJobIn(ctx: ServiceContext, trx: Trx, existing: Job, status: string): Promise<void> {
  await applyUpdate(ctx, trx, existing, { status }, await stagesOf(ctx, trx));
}

export async function moveJob(ctx: ServiceContext, id: number, status: string): Promise<void> {
  await updateJob(ctx, id, { status });
}

// ---- delete and merge ----------------------------------------------------------------------

/** Deletes the job and what hangs on it; the stored objects of its photos and files go after the commit. */
export async function deleteJob(ctx: ServiceContext, id: number): Promise<void> {
  const firmId = ctx.auth.firm.id;
  const objects = await inWorkspaceTransaction(ctx, async (trx) => {
    const job = await findVisibleJob(trx, firmId, id, ctx.auth.user);
    if (!job) throw jobNotFound();
    assertDeletionAllowed(ctx);
    if (!can(ctx.auth.user, 'can_delete_jobs')) {
      throw forbidden('User cannot delete jobs', {
        message: "The key's user is not an owner or a member allowed to delete jobs",
      });
    }
    const keys = await objectsGoingWith('job', trx, firmId, id);
    await trx.deleteFrom('jobs').where('id', '=', id).execute();
    await adjustJobCount(trx, firmId, job.status, -1);
    return keys;
  });
  await removeObjects(ctx.deps.storage, objects);
}

/** Fields the kept job takes from the merged-away one when its own are blank. */
const MERGE_FILLABLE = [
  'company',
  'contact_name',
  'contact_email',
  'contact_phone',
  'bill_to_name',
  'bill_to_email',
  'address',
  'description',
  'notes',
  'job_type',
  'source',
  'estimated_value_cents',
  'probability',
  'start_date',
  'end_date',
  'next_follow_up',
  'client_account_id',
  'location_id',
  'external_ref',
  'crm_deal_id',
  'crm_contact_id',
  'crm_company_id',
  'accounting_job_number',
  'own_property_reference',
  'external_work_order_number',
  'bid_due_date',
  'customer_type',
  'property_type',
  'bond_required',
  'liquidated_damages',
  'davis_bacon',
  'liquidated_damages_per_day_cents',
  'linked_contact_id',
  'operations_division',
  'operations_assignee_user_id',
  'team_id',
] as const;

export async function mergeJob(ctx: ServiceContext, id: number, intoId: number): Promise<void> {
  const firmId = ctx.auth.firm.id;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const away = await findVisibleJob(trx, firmId, id, ctx.auth.user);
    if (!away) throw jobNotFound();
    const kept = await findVisibleJob(trx, firmId, intoId, ctx.auth.user);
    if (!kept) throw notFound('Job not found', { field: 'into_job_id' });
    if (id === intoId) throw badRequest('Cannot merge a job into itself', { code: 'merge_into_self' });
    assertOfficeUser(ctx, 'Merges need an office user; a crew login is refused');
    assertDeletionAllowed(ctx);

    await mergeJobIn(ctx, trx, away, kept);
  });
}

/**
 * Merges `away` into `kept` in the caller's workspace transaction: every record moves through the
 * areas' merge movers, blanks of the kept job are filled from the other, and `away` is deleted. The
 * caller has checked who may (operations merges a hold's placeholder job into the real one this way).
 */
export async function mergeJobIn(ctx: ServiceContext, trx: Trx, away: Job, kept: Job): Promise<void> {
  const firmId = ctx.auth.firm.id;
  const fills: Partial<Job> = fillBlanks(kept, away, MERGE_FILLABLE);
  // The kept job was bid when the first of the two was.
  if (away.bid_at !== null && (kept.bid_at === null || away.bid_at < kept.bid_at)) fills.bid_at = away.bid_at;
  // The kept job's dates win: a date of the other job that would end it before it starts is not taken.
  const start = fills.start_date ?? kept.start_date;
  const end = fills.end_date ?? kept.end_date;
  if (start && end && end < start) {
    delete fills.start_date;
    delete fills.end_date;
  }
  const customFields = { ...JSON.parse(away.custom_fields), ...JSON.parse(kept.custom_fields) };
  if (JSON.stringify(customFields) !== kept.custom_fields) fills.custom_fields = JSON.stringify(customFields);

  await moveJobRecords(trx, {
    firmId,
    userId: ctx.auth.user.id,
    keptId: kept.id,
    awayId: away.id,
    keptName: kept.name,
    awayName: away.name,
    choices: {},
  });
  await trx.deleteFrom('jobs').where('id', '=', away.id).execute();
  await adjustJobCount(trx, firmId, away.status, -1);
  await saveJobChanges(trx, kept, fills);
}
