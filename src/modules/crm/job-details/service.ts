// Job details, the job's site link, operations assignment and taking a person off a job
// (document 2, Job details, site, tags).
import type { Transaction } from 'kysely';
import type { DB, Job } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction, inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, forbidden, notFound, unprocessable } from '#platform/errors.ts';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import { can } from '#platform/permissions.ts';
import { now } from '#platform/time.ts';
import { divisionsOf } from '#platform/workspace.ts';
import { tagsOfJob } from '#crm/job-tags/repo.ts';
import { tagObject } from '#crm/job-tags/service.ts';
import { siteColumns } from '#crm/jobs/links.ts';
import { findJobByNumber } from '#crm/jobs/repo.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { jobNotFound, saveJobChanges } from '#crm/jobs/service.ts';
import { findLocation } from '#crm/locations/repo.ts';
import { upsertLocationIn } from '#crm/locations/service.ts';
import { locationSummary } from '#crm/locations/serialize.ts';
import { findActiveUser } from '#workspace/index.ts';
import type { JobDetailsInput, JobLocationInput, OperationsAssignmentInput } from './schemas.ts';

type Trx = Transaction<DB>;
const flag = (v: number | null) => (v === null ? null : v === 1);
const toFlag = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

async function visibleJob(ctx: ServiceContext, trx: Trx | ServiceContext['database']['db'], id: number): Promise<Job> {
  const job = await findVisibleJob(trx, ctx.auth.firm.id, id, ctx.auth.user);
  if (!job) throw jobNotFound();
  return job;
}

// ---- operations ----------------------------------------------------------------------------

async function operationsOf(ctx: ServiceContext, db: Trx | ServiceContext['database']['db'], job: Job) {
  if (!ctx.auth.settings.crew_scheduling_enabled) return null;
  const options = divisionsOf(ctx.auth.firm);
  const assignee =
    job.operations_assignee_user_id === null
      ? undefined
      : await db
          .selectFrom('users')
          .select(['id', 'name'])
          .where('id', '=', job.operations_assignee_user_id)
          .executeTakeFirst();
  return {
    division: job.operations_division,
    division_name: options.find((d) => d.key === job.operations_division)?.name ?? null,
    division_options: options.map((d) => ({ key: d.key, name: d.name })),
    assignee_user_id: job.operations_assignee_user_id,
    assignee: assignee ? { id: assignee.id, name: assignee.name } : null,
  };
}

export async function setOperationsAssignment(ctx: ServiceContext, jobId: number, input: OperationsAssignmentInput) {
  return inTransaction(ctx.database, async (trx) => {
    const job = await visibleJob(ctx, trx, jobId);
    if (!ctx.auth.settings.crew_scheduling_enabled) {
      throw forbidden('Crew scheduling not enabled', { message: 'Turn on crew scheduling to assign operations' });
    }
    if (!can(ctx.auth.user, 'schedule_editor')) {
      throw forbidden('view_only', { message: "The key's user is not an owner or schedule editor", code: 'view_only' });
    }
    const changes: Partial<Job> = {};
    if (input.division !== undefined) {
      const options = divisionsOf(ctx.auth.firm);
      if (input.division !== null && !options.some((d) => d.key === input.division)) {
        throw badRequest(
          `division must be one of ${options.map((d) => d.key).join(', ') || '(none configured)'}, or null`,
          { field: 'division' },
        );
      }
      changes.operations_division = input.division;
    }
    if (input.operations_assignee_user_id !== undefined) {
      if (
        input.operations_assignee_user_id !== null &&
        !(await findActiveUser(trx, ctx.auth.firm.id, input.operations_assignee_user_id))
      ) {
        throw notFound('operations_assignee_user_id does not match a user in this workspace', {
          field: 'operations_assignee_user_id',
        });
      }
      changes.operations_assignee_user_id = input.operations_assignee_user_id;
    }
    await saveJobChanges(trx, job, changes);
    return operationsOf(ctx, trx, { ...job, ...changes });
  });
}

// ---- details -------------------------------------------------------------------------------

export async function getJobDetails(
  ctx: ServiceContext,
  jobId: number,
  db: Trx | ServiceContext['database']['db'] = ctx.database.db,
) {
  const job = await visibleJob(ctx, db, jobId);
  const location = job.location_id === null ? undefined : await findLocation(db, ctx.auth.firm.id, job.location_id);
  return {
    job_id: job.id,
    job_number: job.job_number,
    display_job_number: String(job.job_number),
    accounting_job_number: job.accounting_job_number,
    property_reference: job.own_property_reference ?? location?.property_reference ?? null,
    own_property_reference: job.own_property_reference,
    external_work_order_number: job.external_work_order_number,
    description_customer_visible: job.description_customer_visible === 1,
    bid_due_date: job.bid_due_date,
    customer_type: job.customer_type,
    property_type: job.property_type,
    bond_required: flag(job.bond_required),
    liquidated_damages: flag(job.liquidated_damages),
    davis_bacon: flag(job.davis_bacon),
    liquidated_damages_per_day: centsToDollars(
      job.liquidated_damages_per_day_cents === null ? null : Number(job.liquidated_damages_per_day_cents),
    ),
    linked_contact_id: job.linked_contact_id,
    location_id: job.location_id,
    location: locationSummary(location),
    tags: (await tagsOfJob(db, job.id)).map(tagObject),
    operations: await operationsOf(ctx, db, job),
  };
}

export async function updateJobDetails(ctx: ServiceContext, jobId: number, input: JobDetailsInput) {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const job = await visibleJob(ctx, trx, jobId);
    const changes: Partial<Job> = {};
    if (input.job_number !== undefined && input.job_number !== job.job_number) {
      const holder = await findJobByNumber(trx, firmId, input.job_number);
      if (holder) {
        throw badRequest(`Job number ${input.job_number} is already used by job "${holder.name}"`, {
          code: 'job_number_taken',
          field: 'job_number',
          holder: { id: holder.id, name: holder.name },
        });
      }
      changes.job_number = input.job_number;
    }
    for (const f of [
      'accounting_job_number',
      'external_work_order_number',
      'bid_due_date',
      'customer_type',
      'property_type',
    ] as const) {
      if (input[f] !== undefined) changes[f] = input[f] === null || input[f]!.trim() === '' ? null : input[f]!.trim();
    }
    // Blank or null reverts to the site's Property ID.
    if (input.property_reference !== undefined)
      changes.own_property_reference = input.property_reference?.trim() || null;
    if (input.description_customer_visible !== undefined)
      changes.description_customer_visible = input.description_customer_visible ? 1 : 0;
    for (const f of ['bond_required', 'liquidated_damages', 'davis_bacon'] as const) {
      if (input[f] !== undefined) changes[f] = toFlag(input[f]!);
    }
    if (input.liquidated_damages_per_day !== undefined) {
      changes.liquidated_damages_per_day_cents =
        input.liquidated_damages_per_day === null ? null : dollarsToCents(input.liquidated_damages_per_day);
    }
    if (input.linked_contact_id !== undefined)
      Object.assign(changes, await linkContact(trx, firmId, job, input.linked_contact_id));
    await saveJobChanges(trx, job, changes);
    return getJobDetails(ctx, jobId, trx);
  });
}

/** Makes a saved contact the job's main contact: primary on the job, its details on the job. */
async function linkContact(trx: Trx, firmId: number, job: Job, contactId: number | null): Promise<Partial<Job>> {
  if (contactId === null) return { linked_contact_id: null };
  const contact = await trx
    .selectFrom('contacts')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', contactId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!contact) throw notFound('Contact not found', { field: 'linked_contact_id' });
  if (
    contact.client_account_id !== null &&
    job.client_account_id !== null &&
    contact.client_account_id !== job.client_account_id
  ) {
    throw badRequest('That contact belongs to another customer', {
      code: 'contact_other_customer',
      field: 'linked_contact_id',
    });
  }
  await trx.updateTable('job_contacts').set({ is_primary: 0 }).where('job_id', '=', job.id).execute();
  await trx
    .insertInto('job_contacts')
    .values({
      job_id: job.id,
      contact_id: contact.id,
      role: null,
      is_primary: 1,
      bills_separately: 0,
      created_at: now(),
    })
    .onConflict((oc) => oc.columns(['job_id', 'contact_id']).doUpdateSet({ is_primary: 1 }))
    .execute();
  return {
    linked_contact_id: contact.id,
    contact_name: contact.name ?? job.contact_name,
    contact_email: contact.email ?? job.contact_email,
    contact_phone: contact.phone ?? job.contact_phone,
  };
}

/** Takes a person off a job; the next person on it becomes primary. */
export async function removeJobContact(ctx: ServiceContext, jobId: number, contactId: number): Promise<void> {
  await inTransaction(ctx.database, async (trx) => {
    const job = await visibleJob(ctx, trx, jobId);
    const link = await trx
      .selectFrom('job_contacts')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('contact_id', '=', contactId)
      .executeTakeFirst();
    if (!link) throw notFound('Contact not found', { message: 'That person is not on this job' });
    await trx.deleteFrom('job_contacts').where('job_id', '=', jobId).where('contact_id', '=', contactId).execute();
    let next: number | null = null;
    if (link.is_primary === 1) {
      const successor = await trx
        .selectFrom('job_contacts')
        .select('contact_id')
        .where('job_id', '=', jobId)
        .orderBy('created_at')
        .orderBy('contact_id')
        .limit(1)
        .executeTakeFirst();
      if (successor) {
        next = successor.contact_id;
        await trx
          .updateTable('job_contacts')
          .set({ is_primary: 1 })
          .where('job_id', '=', jobId)
          .where('contact_id', '=', next)
          .execute();
      }
    }
    if (job.linked_contact_id === contactId) await saveJobChanges(trx, job, { linked_contact_id: next });
  });
}

// ---- site link -----------------------------------------------------------------------------

export async function setJobLocation(ctx: ServiceContext, jobId: number, input: JobLocationInput) {
  const firmId = ctx.auth.firm.id;
  const byId = input.location_id !== undefined;
  if (byId === (input.create_from_address === true)) {
    throw badRequest('Send either location_id (an id or null) or create_from_address: true', {
      code: 'invalid_request',
    });
  }
  return inWorkspaceTransaction(ctx, async (trx) => {
    const job = await visibleJob(ctx, trx, jobId);
    let changes: Partial<Job>;
    if (input.location_id === null) {
      changes = { location_id: null };
    } else if (byId) {
      const site = await findLocation(trx, firmId, input.location_id!);
      if (!site) throw notFound('Location not found', { field: 'location_id' });
      changes = await siteColumns(trx, firmId, job, site);
    } else {
      if (!job.address || job.address.trim() === '') {
        throw unprocessable('Job has no address', {
          message: 'Add an address to the job before saving it as a site',
          code: 'job_address_missing',
        });
      }
      const { location } = await upsertLocationIn(trx, firmId, ctx.auth.settings, {
        address: job.address,
        client_account_id: job.client_account_id,
      });
      changes = await siteColumns(trx, firmId, job, location);
    }
    await saveJobChanges(trx, job, changes);
    const after = { ...job, ...changes };
    const location = after.location_id === null ? undefined : await findLocation(trx, firmId, after.location_id);
    return {
      job_id: job.id,
      location_id: after.location_id,
      location: locationSummary(location),
      client_account_id: after.client_account_id,
    };
  });
}
