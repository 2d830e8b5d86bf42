// People on a job (GET and POST /v1/jobs/{job_id}/contacts) and a company's people
// (GET /v1/client-accounts/{id}/contacts). Taking a person off a job lives in job-details.
import type { Job } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { emailField, phoneField } from '#platform/email-phone.ts';
import { truncate } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { clientAccountNotFound } from '#crm/client-accounts/service.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { jobNotFound, saveJobChanges } from '#crm/jobs/service.ts';
import { companyPeople, findContact, peopleOnJob, type PersonOnJob } from './repo.ts';
import { displayNameOf, JOB_ROLES } from './rules.ts';
import { contactObject, personOnJobObject } from './serialize.ts';
import { createContactIn, findContactByEmail } from './service.ts';
import { contactNotFound, customerForJob } from './write.ts';
import type { JobPersonInput } from './schemas.ts';

const NEW_PERSON_FIELDS = ['name', 'email', 'phone', 'company', 'title', 'contact_type'] as const;

/** Primary first, then by role (in the role list's order, none last), then A to Z. */
function byPrimaryRoleName(a: PersonOnJob, b: PersonOnJob): number {
  const rank = (r: string | null) => (r === null ? JOB_ROLES.length : (JOB_ROLES as readonly string[]).indexOf(r));
  return (
    b.is_primary - a.is_primary ||
    rank(a.role) - rank(b.role) ||
    a.c_sort_key.localeCompare(b.c_sort_key) ||
    a.contact_id - b.contact_id
  );
}

export async function listJobPeople(ctx: ServiceContext, jobId: number) {
  const job = await findVisibleJob(ctx.database.db, ctx.auth.firm.id, jobId, ctx.auth.user);
  if (!job) throw jobNotFound();
  return (await peopleOnJob(ctx.database.db, jobId)).sort(byPrimaryRoleName).map(personOnJobObject);
}

function cleanRole(role: string | null | undefined): string | null | undefined {
  if (role === undefined || role === null) return role;
  const r = role.trim().toLowerCase();
  if (r === '') return null;
  if (!(JOB_ROLES as readonly string[]).includes(r))
    throw badRequest(`role must be one of ${JOB_ROLES.join(', ')}`, { field: 'role' });
  return r;
}

/**
 * Puts a saved person (contact_id) or a new one on the job. A new person with an email already on
 * file is that saved person. The first person (while the job has no primary) becomes primary;
 * the primary fills the job's contact fields and becomes its linked contact; a job without a
 * customer is linked to the person's company. Adding someone already on the job updates their
 * role and flags. Answers the entry and whether it was added.
 */
export async function addJobPerson(ctx: ServiceContext, jobId: number, input: JobPersonInput) {
  const firmId = ctx.auth.firm.id;
  const role = cleanRole(input.role);
  const newPerson = NEW_PERSON_FIELDS.some((f) => input[f] !== undefined);
  if (input.contact_id !== undefined && newPerson) {
    throw badRequest("Send contact_id or a new person's details, not both", { code: 'invalid_request' });
  }
  if (input.contact_id === undefined && !input.name?.trim() && !input.email?.trim()) {
    throw badRequest('Add at least a name or an email.', { code: 'contact_empty' });
  }
  // Checked up front, also when the email finds a saved person and the values go unused.
  emailField(input.email, 'email');
  phoneField(input.phone, 'phone');
  return inWorkspaceTransaction(ctx, async (trx) => {
    const job = await findVisibleJob(trx, firmId, jobId, ctx.auth.user);
    if (!job) throw jobNotFound();
    let contact: Awaited<ReturnType<typeof findContact>>;
    if (input.contact_id !== undefined) {
      contact = await findContact(trx, firmId, input.contact_id);
      if (!contact || contact.archived_at !== null) throw contactNotFound({ field: 'contact_id' });
    } else {
      contact =
        (input.email?.trim() ? await findContactByEmail(trx, firmId, input.email) : undefined) ??
        (await createContactIn(ctx, trx, {
          name: input.name,
          email: input.email,
          phone: input.phone,
          company: input.company,
          title: input.title,
          contact_type: input.contact_type,
        }));
    }
    const people = await peopleOnJob(trx, jobId);
    const existing = people.find((p) => p.contact_id === contact.id);
    const hasPrimary = people.some((p) => p.is_primary === 1 && p.contact_id !== contact.id);
    const primary = input.is_primary ?? (existing ? existing.is_primary === 1 : !hasPrimary);
    const wasPrimary = existing?.is_primary === 1;
    if (existing) {
      await trx
        .updateTable('job_contacts')
        .set({
          ...(role !== undefined ? { role } : {}),
          ...(input.bills_separately !== undefined ? { bills_separately: input.bills_separately ? 1 : 0 } : {}),
          is_primary: primary ? 1 : 0,
        })
        .where('job_id', '=', jobId)
        .where('contact_id', '=', contact.id)
        .execute();
    } else {
      await trx
        .insertInto('job_contacts')
        .values({
          job_id: jobId,
          contact_id: contact.id,
          role: role ?? null,
          is_primary: primary ? 1 : 0,
          bills_separately: input.bills_separately ? 1 : 0,
          created_at: now(),
        })
        .execute();
    }

    const changes: Partial<Job> = {};
    if (primary) {
      await trx
        .updateTable('job_contacts')
        .set({ is_primary: 0 })
        .where('job_id', '=', jobId)
        .where('contact_id', '!=', contact.id)
        .where('is_primary', '=', 1)
        .execute();
      if (!wasPrimary || job.linked_contact_id !== contact.id) {
        Object.assign(changes, {
          linked_contact_id: contact.id,
          contact_name: truncate(contact.name, 200) ?? job.contact_name,
          contact_email: truncate(contact.email, 120) ?? job.contact_email,
          contact_phone: contact.phone ?? job.contact_phone,
        });
      }
    } else if (wasPrimary && job.linked_contact_id === contact.id) {
      changes.linked_contact_id = null;
    }
    if (contact.client_account_id !== null && job.client_account_id === null) {
      const account = await findClientAccount(trx, firmId, contact.client_account_id);
      if (account) Object.assign(changes, customerForJob(job, account));
    }
    await saveJobChanges(trx, job, changes);
    if (!existing) {
      await logJobActivity(trx, {
        firmId,
        jobId,
        userId: ctx.auth.user.id,
        kind: 'contact_added',
        summary: `${displayNameOf(contact)} added to the job${primary ? ' as the main contact' : ''}`,
        data: { contact_id: contact.id, role: role ?? null, is_primary: primary },
      });
    }
    const [entry] = await peopleOnJob(trx, jobId, contact.id);
    return { entry: personOnJobObject(entry), created: !existing };
  });
}

/** Everyone with a current link to the company or whose primary company it is, A to Z. */
export async function listCompanyPeople(
  ctx: ServiceContext,
  accountId: number,
  includeArchived: boolean,
  limit: number,
  offset: number,
) {
  const account = await findClientAccount(ctx.database.db, ctx.auth.firm.id, accountId);
  if (!account) throw clientAccountNotFound();
  const { rows, total } = await companyPeople(
    ctx.database.db,
    ctx.auth.firm.id,
    accountId,
    includeArchived,
    limit,
    offset,
  );
  return {
    total,
    data: rows.map((r) => ({
      ...contactObject(r),
      link: {
        kind: 'company',
        id: account.id,
        name: account.name,
        roles: r.link_roles === null ? [] : (JSON.parse(r.link_roles) as string[]),
        is_primary: r.link_is_primary === null ? r.client_account_id === account.id : r.link_is_primary === 1,
        current: true,
        started_on: r.link_started_on,
        ended_on: null,
      },
    })),
  };
}
