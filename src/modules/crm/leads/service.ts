// Leads (document 2, Lead, the Lead states and the Leads endpoints): the inbox list and read,
// intake (intake.ts), and the actions contacted, assign, convert, dismiss and restore with their
// 409s: a dismissed or spam lead must be restored first; a converted one is closed; a lead with no
// job cannot be converted.
import type { Transaction } from 'kysely';
import type { DB, Lead } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, conflict, forbidden, invalidField, notFound } from '#platform/errors.ts';
import { formatPhone, emailField, phoneDigits } from '#platform/email-phone.ts';
import type { Page } from '#platform/pagination.ts';
import { can } from '#platform/permissions.ts';
import type { SyncWindow } from '#platform/sync.ts';
import { now } from '#platform/time.ts';
import { jobTypesOf } from '#platform/workspace.ts';
import { listStages } from '#crm/job-stages/repo.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { getWrittenJob, jobNotFound, moveJobIn, saveJobChanges } from '#crm/jobs/service.ts';
import { findActiveUser } from '#workspace/index.ts';
import { closeLeadFollowUp, markLeadContacted, markLeadConverted } from './implicit.ts';
import { runIntake, type Submission } from './intake.ts';
import { queueLeadAlert } from './mail.ts';
import { findLead, findLeadRow, listLeadRows, type LeadFilter } from './repo.ts';
import { PHONE_DIGITS, STATUS_LABEL, TIMINGS, type ContactHow, type LeadStatus } from './rules.ts';
import type { AssignInput, ContactedInput, ConvertInput, CreateLeadInput, DismissInput } from './schemas.ts';
import { leadObject, type CreatedRecords } from './serialize.ts';

type Trx = Transaction<DB>;

export const leadNotFound = () => notFound('Lead not found');
const restoreFirst = (lead: Lead) =>
  conflict('Restore this lead first.', {
    code: 'lead_dismissed',
    message: `This lead is ${STATUS_LABEL[lead.status as LeadStatus].toLowerCase()}; restore it first`,
    status: lead.status,
  });
const leadClosed = (message: string) => conflict('Lead closed', { code: 'lead_closed', message });

const text = (v: string | undefined): string | null => (v === undefined ? null : v.trim() || null);

// ---- reads ---------------------------------------------------------------------------------

async function leadOr404(ctx: ServiceContext, db: Trx | ServiceContext['database']['db'], id: number) {
  const row = await findLeadRow(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw leadNotFound();
  return row;
}

export async function getLead(ctx: ServiceContext, id: number) {
  return leadObject(await leadOr404(ctx, ctx.database.db, id));
}

/** The lead a write just saved, as written (a member seeing own jobs only may have handed it on). */
async function writtenLead(ctx: ServiceContext, id: number) {
  const row = await findLeadRow(ctx.database.db, ctx.auth.firm.id, id, null);
  return leadObject(row!);
}

export async function listLeads(
  ctx: ServiceContext,
  filter: Omit<LeadFilter, 'engine' | 'updatedAfter'> & { updatedAfter?: SyncWindow },
  page: Page,
) {
  const { rows, total } = await listLeadRows(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    { ...filter, engine: ctx.database.dialect.engine },
    page,
  );
  return { data: rows.map(leadObject), total };
}

// ---- intake --------------------------------------------------------------------------------

/** The body checked with the spec's wording; nothing is written before this passes. */
export function submissionOf(ctx: ServiceContext, input: CreateLeadInput): Submission {
  const name = text(input.name);
  if (!name) throw badRequest('name is required', { code: 'invalid_request', field: 'name' });
  const email = emailField(input.email, 'email') ?? null;
  let phone: string | null = null;
  const rawPhone = text(input.phone);
  if (rawPhone) {
    const digits = phoneDigits(rawPhone).length;
    const formatted = formatPhone(rawPhone);
    if (digits < PHONE_DIGITS.min || digits > PHONE_DIGITS.max || !formatted.ok)
      throw badRequest('phone must have 10 to 15 digits', { code: 'invalid_phone', field: 'phone' });
    phone = formatted.value;
  }
  if (!email && !phone)
    throw badRequest('Send an email or a phone number so someone can reach them.', {
      code: 'invalid_request',
      field: 'email',
    });
  const jobTypes = jobTypesOf(ctx.auth.firm);
  const services: string[] = [];
  const unknown: string[] = [];
  for (const raw of input.services ?? []) {
    const s = raw.trim();
    if (!s) continue;
    const known = jobTypes.find((t) => t.toLowerCase() === s.toLowerCase());
    if (!known) unknown.push(s);
    else if (!services.includes(known)) services.push(known);
  }
  if (unknown.length > 0)
    throw badRequest(`Unknown services: ${unknown.join(', ')}`, {
      code: 'unknown_job_type',
      field: 'services',
      message: `services must be among the workspace's job types: ${jobTypes.join(', ')}`,
    });
  const timing = text(input.timing);
  if (timing !== null && !(TIMINGS as readonly string[]).includes(timing))
    throw badRequest(`timing must be one of ${TIMINGS.join(', ')}`, { code: 'invalid_choice', field: 'timing' });
  let propertyType = text(input.property_type);
  if (propertyType !== null) {
    const types = ctx.auth.settings.property_types;
    const known = types.find((t) => t.toLowerCase() === propertyType!.toLowerCase());
    if (!known)
      throw badRequest(`property_type must be one of ${types.join(', ')}`, {
        code: 'invalid_choice',
        field: 'property_type',
      });
    propertyType = known;
  }
  return {
    name,
    email,
    phone,
    company: text(input.company),
    address: text(input.address),
    message: text(input.message),
    services,
    timing,
    property_type: propertyType,
    source: text(input.source) ?? 'API',
    source_kind: 'api',
    utm: input.utm ?? {},
    notify: input.notify ?? true,
  };
}

export async function createLead(ctx: ServiceContext, input: CreateLeadInput) {
  const submission = submissionOf(ctx, input);
  const id = await inWorkspaceTransaction(ctx, (trx) => runIntake(ctx, trx, submission));
  return writtenLead(ctx, id);
}

// ---- actions -------------------------------------------------------------------------------

const NOTE_TYPE: Record<ContactHow, string> = {
  call: 'call',
  email: 'email',
  meeting: 'meeting',
  text: 'note',
  other: 'note',
};
const NOTE_TEXT: Record<ContactHow, string> = {
  call: 'Called about their request.',
  email: 'Emailed about their request.',
  meeting: 'Met about their request.',
  text: 'Texted about their request.',
  other: 'Reached out about their request.',
};

export async function markContacted(ctx: ServiceContext, id: number, input: ContactedInput) {
  const how = input.how ?? 'other';
  await inWorkspaceTransaction(ctx, async (trx) => {
    const lead = await leadOr404(ctx, trx, id);
    if (lead.status === 'dismissed' || lead.status === 'spam') throw restoreFirst(lead);
    if (lead.status === 'converted') throw leadClosed('This lead is already moving forward');
    if (lead.status !== 'new') return;
    await markLeadContacted(trx, ctx.auth, lead, how === 'other' ? 'marked' : how);
    // The outreach is noted on the person: a logged call, email or meeting, or a note for a text.
    if (lead.contact_id !== null) {
      const t = now();
      const note = text(input.note);
      await trx
        .insertInto('notes')
        .values({
          firm_id: ctx.auth.firm.id,
          job_id: null,
          contact_id: lead.contact_id,
          client_account_id: null,
          type: NOTE_TYPE[how],
          content: how === 'text' && note ? `Text: ${note}` : (note ?? NOTE_TEXT[how]),
          pinned: 0,
          author_user_id: ctx.auth.user.id,
          occurred_at: t,
          created_at: t,
          updated_at: t,
        })
        .execute();
    }
  });
  return writtenLead(ctx, id);
}

export async function assignLead(ctx: ServiceContext, id: number, input: AssignInput) {
  if (input.user_id === undefined) throw invalidField('user_id', 'user_id is required');
  const userId = input.user_id;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const lead = await leadOr404(ctx, trx, id);
    const user = await findActiveUser(trx, ctx.auth.firm.id, userId);
    if (!user) throw notFound('user_id does not match a user in this workspace', { field: 'user_id' });
    if (!can(user, 'office_user'))
      throw notFound('user is not an office teammate', {
        field: 'user_id',
        message: 'Leads go to office users, not crew logins',
      });
    if (lead.status === 'dismissed' || lead.status === 'spam') throw restoreFirst(lead);
    if (lead.assigned_to_user_id === user.id) return;
    const t = now();
    await trx
      .updateTable('leads')
      .set({
        assigned_to_user_id: user.id,
        assignment_reason: `Assigned by ${ctx.auth.user.name}`,
        assignment_rule: 'manual',
        updated_at: t,
      })
      .where('id', '=', lead.id)
      .execute();
    if (lead.follow_up_task_id !== null) {
      await trx
        .updateTable('account_tasks')
        .set({ assigned_to_user_id: user.id, updated_at: t })
        .where('id', '=', lead.follow_up_task_id)
        .where('status', '=', 'open')
        .execute();
    }
    if (lead.job_id !== null && lead.status !== 'converted') {
      const job = await trx.selectFrom('jobs').selectAll().where('id', '=', lead.job_id).executeTakeFirst();
      if (job) await saveJobChanges(trx, job, { assigned_to_user_id: user.id });
    }
    // Nobody has reached out yet: the new assignee gets the new-lead alert.
    if (lead.status === 'new') {
      const saved = (await findLead(trx, ctx.auth.firm.id, lead.id))!;
      await queueLeadAlert(trx, ctx.deps.mail, {
        firm: ctx.auth.firm,
        lead: saved,
        assignee: user,
        replyTo: ctx.auth.user.email,
      });
    }
  });
  return writtenLead(ctx, id);
}

export async function convertLead(ctx: ServiceContext, id: number, input: ConvertInput) {
  const jobId = await inWorkspaceTransaction(ctx, async (trx) => {
    const lead = await leadOr404(ctx, trx, id);
    if (lead.status === 'dismissed' || lead.status === 'spam') throw restoreFirst(lead);
    if (lead.status === 'converted') throw leadClosed('This lead is already moving forward');
    if (lead.job_id === null) {
      throw conflict('No job', {
        code: 'no_job',
        message:
          lead.on_leads_pipeline === 1
            ? 'This lead waits on the Leads pipeline with no job; move it to sales in the app first'
            : `This lead has no job${lead.problem ? ` (${lead.problem})` : ''}`,
      });
    }
    if (ctx.auth.settings.jobs_from_connected_system) {
      throw forbidden('Status locked', {
        code: 'status_locked',
        message: "This workspace's jobs come from a connected system, which owns their stages",
      });
    }
    const job = await findVisibleJob(trx, ctx.auth.firm.id, lead.job_id, ctx.auth.user);
    if (!job) throw jobNotFound();
    const stages = await listStages(trx, ctx.auth.firm.id);
    let target: (typeof stages)[number] | undefined;
    if (input.status !== undefined) {
      target = stages.find((s) => s.key === input.status);
      if (!target)
        throw badRequest(`status must be one of ${stages.map((s) => s.key).join(', ')}`, {
          code: 'unknown_status',
          field: 'status',
        });
      if (target.type !== 'open' && target.type !== 'won')
        throw badRequest(`A lead cannot move forward into the ${target.type} stage ${target.key}`, {
          code: 'invalid_status',
          field: 'status',
          message: 'Pick an open or won stage',
        });
    } else {
      const entry = stages.findIndex((s) => s.key === (lead.entry_stage ?? job.status));
      target = stages.slice(entry + 1).find((s) => s.type === 'open');
      if (!target)
        throw badRequest('No later open stage', {
          code: 'invalid_status',
          field: 'status',
          message: 'The pipeline has no open stage after the one this lead entered; send status',
        });
    }
    // confirm_schedule_completion: work orders do not exist yet, so no move completes any and
    // 409 confirmation_required cannot arise (docs/api-decisions.md, "Leads").
    if (job.status !== target.key) await moveJobIn(ctx, trx, job, target.key);
    await markLeadConverted(trx, lead);
    return job.id;
  });
  const [lead, job] = await Promise.all([writtenLead(ctx, id), getWrittenJob(ctx, jobId)]);
  return { lead, job };
}

/** Whether anything besides `lead` uses the contact (jobs, other leads, notes, follow-ups, activities). */
async function contactUsedElsewhere(trx: Trx, lead: Lead, contactId: number): Promise<boolean> {
  const firmId = lead.firm_id;
  const checks = [
    trx
      .selectFrom('job_contacts')
      .select('contact_id as x')
      .where('contact_id', '=', contactId)
      .where('job_id', '!=', lead.job_id ?? -1),
    trx.selectFrom('leads').select('id as x').where('contact_id', '=', contactId).where('id', '!=', lead.id),
    trx.selectFrom('notes').select('id as x').where('firm_id', '=', firmId).where('contact_id', '=', contactId),
    trx.selectFrom('activities').select('id as x').where('firm_id', '=', firmId).where('contact_id', '=', contactId),
    trx.selectFrom('tasks').select('id as x').where('firm_id', '=', firmId).where('contact_id', '=', contactId),
    trx
      .selectFrom('account_tasks')
      .select('id as x')
      .where('contact_id', '=', contactId)
      .where('id', '!=', lead.follow_up_task_id ?? -1),
    trx
      .selectFrom('contact_links')
      .select('id as x')
      .where('contact_id', '=', contactId)
      .where((eb) => eb.or([eb('kind', '=', 'location'), eb('target_id', '!=', lead.client_account_id ?? -1)])),
  ];
  for (const q of checks as { limit(n: number): { executeTakeFirst(): Promise<unknown> } }[])
    if (await q.limit(1).executeTakeFirst()) return true;
  return false;
}

/** Whether anything besides `lead` (and its job, site, person and follow-up) uses the company. */
async function accountUsedElsewhere(trx: Trx, lead: Lead, accountId: number): Promise<boolean> {
  const firmId = lead.firm_id;
  const checks = [
    trx
      .selectFrom('jobs')
      .select('id as x')
      .where('client_account_id', '=', accountId)
      .where('id', '!=', lead.job_id ?? -1),
    trx
      .selectFrom('locations')
      .select('id as x')
      .where('client_account_id', '=', accountId)
      .where('id', '!=', lead.location_id ?? -1),
    trx
      .selectFrom('contacts')
      .select('id as x')
      .where('client_account_id', '=', accountId)
      .where('id', '!=', lead.contact_id ?? -1),
    trx
      .selectFrom('contact_links')
      .select('id as x')
      .where('kind', '=', 'company')
      .where('target_id', '=', accountId)
      .where('contact_id', '!=', lead.contact_id ?? -1),
    trx.selectFrom('leads').select('id as x').where('client_account_id', '=', accountId).where('id', '!=', lead.id),
    trx.selectFrom('notes').select('id as x').where('firm_id', '=', firmId).where('client_account_id', '=', accountId),
    trx
      .selectFrom('account_tasks')
      .select('id as x')
      .where('client_account_id', '=', accountId)
      .where('id', '!=', lead.follow_up_task_id ?? -1),
  ];
  for (const q of checks as { limit(n: number): { executeTakeFirst(): Promise<unknown> } }[])
    if (await q.limit(1).executeTakeFirst()) return true;
  return false;
}

export async function dismissLead(ctx: ServiceContext, id: number, input: DismissInput) {
  const spam = input.spam ?? false;
  const message = await inWorkspaceTransaction(ctx, async (trx) => {
    const lead = await leadOr404(ctx, trx, id);
    if (lead.status === 'dismissed' || lead.status === 'spam')
      throw leadClosed(`This lead is already ${STATUS_LABEL[lead.status].toLowerCase()}`);
    if (lead.status === 'converted') throw leadClosed('This lead is already moving forward');
    const t = now();
    const archived: { contact_id?: number; client_account_id?: number } = {};
    if (spam) {
      const created = JSON.parse(lead.created_records) as CreatedRecords;
      if (created.contact && lead.contact_id !== null && !(await contactUsedElsewhere(trx, lead, lead.contact_id))) {
        const r = await trx
          .updateTable('contacts')
          .set({ archived_at: t, updated_at: t })
          .where('id', '=', lead.contact_id)
          .where('archived_at', 'is', null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) > 0) archived.contact_id = lead.contact_id;
      }
      if (
        created.account &&
        lead.client_account_id !== null &&
        !(await accountUsedElsewhere(trx, lead, lead.client_account_id))
      ) {
        const r = await trx
          .updateTable('client_accounts')
          .set({ archived_at: t, updated_at: t })
          .where('id', '=', lead.client_account_id)
          .where('archived_at', 'is', null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) > 0) archived.client_account_id = lead.client_account_id;
      }
    }
    await trx
      .updateTable('leads')
      .set({
        status: spam ? 'spam' : 'dismissed',
        archived_records: Object.keys(archived).length > 0 ? JSON.stringify(archived) : null,
        status_changed_at: t,
        updated_at: t,
      })
      .where('id', '=', lead.id)
      .execute();
    await closeLeadFollowUp(trx, lead, t);
    if (!spam) return 'Lead dismissed: it has left the inbox.';
    const what = [
      archived.contact_id !== undefined ? 'contact' : null,
      archived.client_account_id !== undefined ? 'company' : null,
    ].filter(Boolean);
    return what.length > 0
      ? `Lead marked as spam; the ${what.join(' and ')} it created ${what.length > 1 ? 'were' : 'was'} archived.`
      : 'Lead marked as spam; nothing it created was archived (nothing it made, or something else uses it).';
  });
  return { lead: await writtenLead(ctx, id), message };
}

export async function restoreLead(ctx: ServiceContext, id: number) {
  const resultId = await inWorkspaceTransaction(ctx, async (trx) => {
    const lead = await leadOr404(ctx, trx, id);
    if (lead.status !== 'dismissed' && lead.status !== 'spam')
      throw conflict('Lead is not dismissed', {
        code: 'invalid_status',
        message: 'Only a dismissed or spam lead can be restored',
        status: lead.status,
      });
    if (lead.replaced_by_lead_id !== null)
      throw leadClosed(`This lead was restored as lead ${lead.replaced_by_lead_id}`);
    const t = now();
    if (lead.auto_spam === 1 && lead.job_id === null) {
      // Flagged by the rule before anything was made: intake runs again, as a new lead.
      const newId = await runIntake(ctx, trx, {
        name: lead.name,
        email: lead.email,
        phone: lead.phone,
        company: lead.company,
        address: lead.address,
        message: lead.message,
        services: JSON.parse(lead.services) as string[],
        timing: lead.timing,
        property_type: lead.property_type,
        source: lead.source ?? 'API',
        source_kind: lead.source_kind,
        utm: JSON.parse(lead.utm) as Record<string, string>,
        notify: true,
        submittedAt: lead.submitted_at,
        skipSpamCheck: true,
        replacedLeadId: lead.id,
      });
      await trx
        .updateTable('leads')
        .set({ replaced_by_lead_id: newId, updated_at: t })
        .where('id', '=', lead.id)
        .execute();
      return newId;
    }
    const archived = lead.archived_records
      ? (JSON.parse(lead.archived_records) as { contact_id?: number; client_account_id?: number })
      : {};
    if (archived.contact_id !== undefined)
      await trx
        .updateTable('contacts')
        .set({ archived_at: null, updated_at: t })
        .where('id', '=', archived.contact_id)
        .where('archived_at', 'is not', null)
        .execute();
    if (archived.client_account_id !== undefined)
      await trx
        .updateTable('client_accounts')
        .set({ archived_at: null, updated_at: t })
        .where('id', '=', archived.client_account_id)
        .where('archived_at', 'is not', null)
        .execute();
    const status = lead.first_contacted_at !== null ? 'contacted' : 'new';
    await trx
      .updateTable('leads')
      .set({ status, archived_records: null, status_changed_at: t, updated_at: t })
      .where('id', '=', lead.id)
      .execute();
    // Back to new: nobody reached out, so the dismissal closed the Call new lead follow-up; it reopens.
    if (status === 'new' && lead.follow_up_task_id !== null)
      await trx
        .updateTable('account_tasks')
        .set({ status: 'open', completed_at: null, updated_at: t })
        .where('id', '=', lead.follow_up_task_id)
        .execute();
    return lead.id;
  });
  return writtenLead(ctx, resultId);
}
