// Lead intake (document 2, Leads: "Creating a lead runs intake"), in the caller's workspace
// transaction: match or create the person (by email, then phone) and their company; open a job in
// the first open stage and link the site from the address; route to a teammate; create the Call
// new lead company follow-up due within the speed-to-lead window; save the lead; queue the alert
// to the assignee unless notify is false. The job is opened inside a savepoint: when it cannot be
// made (a workspace-required job field missing, say) the savepoint is rolled back and the lead is
// still saved, with its answers and `problem` saying why. Nothing is sent to the lead.
import { sql, type Transaction } from 'kysely';
import type { Contact, DB, Lead } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { ApiError } from '#platform/errors.ts';
import { truncate } from '#platform/text.ts';
import { millisOf, now, storedAt } from '#platform/time.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { upsertClientAccountIn } from '#crm/client-accounts/service.ts';
import { createContactIn, findContactByEmail } from '#crm/contacts/service.ts';
import { valueKey } from '#crm/contacts/rules.ts';
import { listStages } from '#crm/job-stages/repo.ts';
import { createJobIn } from '#crm/jobs/service.ts';
import { queueLeadAlert } from './mail.ts';
import { answersOf, autoSpamReason, FOLLOW_UP_TITLE } from './rules.ts';
import { routeLead } from './routing.ts';
import type { CreatedRecords } from './serialize.ts';

type Trx = Transaction<DB>;

/** A validated submission (service.ts checks the body; a restore replays a saved lead). */
export interface Submission {
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  address: string | null;
  message: string | null;
  services: string[];
  timing: string | null;
  property_type: string | null;
  source: string;
  source_kind: Lead['source_kind'];
  utm: Record<string, string>;
  notify: boolean;
  /** A restore replays the original submission time. */
  submittedAt?: string;
  /** A restore of an auto-spam lead runs intake again, trusting the teammate who restored it. */
  skipSpamCheck?: boolean;
  replacedLeadId?: number;
}

/** A phone match: a live person with a phone of the same digits. */
async function findContactByPhone(trx: Trx, firmId: number, phone: string): Promise<Contact | undefined> {
  // A US number matches with or without its country code 1.
  const digits = valueKey('phone', phone);
  const keys = [digits];
  if (digits.length === 11 && digits.startsWith('1')) keys.push(digits.slice(1));
  if (digits.length === 10) keys.push(`1${digits}`);
  return trx
    .selectFrom('contact_channels as ch')
    .innerJoin('contacts', 'contacts.id', 'ch.contact_id')
    .selectAll('contacts')
    .where('ch.firm_id', '=', firmId)
    .where('ch.kind', '=', 'phone')
    .where('ch.value_key', 'in', keys)
    .where('contacts.archived_at', 'is', null)
    .orderBy('ch.contact_id')
    .limit(1)
    .executeTakeFirst();
}

/** Runs `work` inside a savepoint of `trx`: a documented failure rolls back only what it did. */
async function inSavepoint<T>(
  trx: Trx,
  name: string,
  work: () => Promise<T>,
): Promise<{ ok: T } | { error: ApiError }> {
  await sql`savepoint ${sql.raw(name)}`.execute(trx);
  try {
    const ok = await work();
    await sql`release savepoint ${sql.raw(name)}`.execute(trx);
    return { ok };
  } catch (err) {
    await sql`rollback to savepoint ${sql.raw(name)}`.execute(trx);
    await sql`release savepoint ${sql.raw(name)}`.execute(trx);
    if (err instanceof ApiError) return { error: err };
    throw err;
  }
}

function problemOf(err: ApiError): string {
  const detail = err.body.message ?? err.body.error;
  return `The job could not be created: ${detail}`;
}

/** Runs intake for `s` in `trx` (a workspace transaction); returns the new lead's id. */
export async function runIntake(ctx: ServiceContext, trx: Trx, s: Submission): Promise<number> {
  const firm = ctx.auth.firm;
  const settings = ctx.auth.settings;
  const t = now();
  const submittedAt = s.submittedAt ?? t;
  const spamReason = s.skipSpamCheck ? null : autoSpamReason(s);
  const created: CreatedRecords = { contact: false, account: false, job: false, location: false };
  const matchReasons: string[] = [];
  const ids = {
    contact_id: null as number | null,
    client_account_id: null as number | null,
    job_id: null as number | null,
    location_id: null as number | null,
  };
  let problem: string | null = null;
  let entryStage: string | null = null;
  let accountName: string | null = null;
  const onLeadsPipeline = settings.leads_pipeline && !spamReason;

  if (!spamReason) {
    // The person: by email, then by phone, else a new contact.
    let contact = s.email ? await findContactByEmail(trx, firm.id, s.email) : undefined;
    if (contact) matchReasons.push(`Contact matched by email ${s.email}`);
    if (!contact && s.phone) {
      contact = await findContactByPhone(trx, firm.id, s.phone);
      if (contact) matchReasons.push(`Contact matched by phone ${s.phone}`);
    }
    // Their company: the one named, else the matched person's, else one named for the person.
    let account: { id: number; name: string } | undefined;
    if (!onLeadsPipeline) {
      if (s.company) {
        const r = await upsertClientAccountIn(trx, firm.id, { name: s.company });
        account = r.account;
        if (r.created) created.account = true;
        else matchReasons.push(`Company matched by name ${r.account.name}`);
      } else if (contact?.client_account_id != null) {
        account = await findClientAccount(trx, firm.id, contact.client_account_id);
        if (account) matchReasons.push(`Company of the matched contact: ${account.name}`);
      }
      if (!account) {
        const r = await upsertClientAccountIn(trx, firm.id, { name: s.name });
        account = r.account;
        if (r.created) created.account = true;
        else matchReasons.push(`Company matched by name ${r.account.name}`);
      }
      ids.client_account_id = account.id;
      accountName = account.name;
    }
    if (!contact) {
      contact = await createContactIn(ctx, trx, {
        name: s.name,
        email: s.email,
        phone: s.phone,
        ...(account ? { client_account_id: account.id } : {}),
      });
      created.contact = true;
    }
    ids.contact_id = contact.id;
  }

  const routing = spamReason
    ? {
        userId: firm.owner_user_id ?? ctx.auth.user.id,
        rule: 'owner' as const,
        reason: `Not routed: flagged as spam (${spamReason})`,
      }
    : await routeLead(trx, firm, settings, s);

  if (!spamReason && !onLeadsPipeline) {
    // The job, in the first open stage, with the site from the address.
    const stages = await listStages(trx, firm.id);
    const first = stages.find((st) => st.type === 'open');
    if (!first) problem = 'The job could not be created: the pipeline has no open stage';
    else {
      entryStage = first.key;
      const contact = ids.contact_id;
      const result = await inSavepoint(trx, 'lead_job', async () => {
        const { id } = await createJobIn(
          ctx,
          trx,
          {
            name: truncate(`${s.name} - ${s.services.length > 0 ? s.services.join(', ') : 'New lead'}`, 200),
            client_account_id: ids.client_account_id,
            // The customer's name as the job's company, as the job would take it: saves reading it again.
            ...(accountName !== null ? { company: accountName } : {}),
            ...(s.address ? { address: s.address } : {}),
            contact_name: truncate(s.name, 200),
            ...(s.email ? { contact_email: truncate(s.email, 120) } : {}),
            ...(s.phone ? { contact_phone: s.phone } : {}),
            ...(s.services.length > 0 ? { job_type: s.services } : {}),
            ...(s.message ? { description: s.message } : {}),
            status: first.key,
            source: truncate(s.source, 100),
            assigned_to_user_id: routing.userId,
            allow_duplicate_name: true,
          },
          stages,
        );
        if (contact !== null) {
          await trx
            .insertInto('job_contacts')
            .values({
              job_id: id,
              contact_id: contact,
              role: null,
              is_primary: 1,
              bills_separately: 0,
              created_at: now(),
            })
            .execute();
        }
        return id;
      });
      if ('error' in result) problem = problemOf(result.error);
      else {
        ids.job_id = result.ok;
        created.job = true;
        // A site made by this intake is newer than its start (timestamps only grow within a process).
        const site = await trx
          .selectFrom('jobs')
          .leftJoin('locations', 'locations.id', 'jobs.location_id')
          .select(['jobs.location_id', 'locations.address', 'locations.created_at'])
          .where('jobs.id', '=', result.ok)
          .executeTakeFirstOrThrow();
        ids.location_id = site.location_id;
        if (site.location_id !== null) {
          if (site.created_at !== null && site.created_at > t) created.location = true;
          else matchReasons.push(`Site matched by address ${site.address}`);
        }
      }
    }
  }

  const respondBy = spamReason ? null : storedAt(millisOf(t) + settings.speed_to_lead_minutes * 60_000);
  let followUpId: number | null = null;
  if (!spamReason && ids.client_account_id !== null) {
    const task = await trx
      .insertInto('account_tasks')
      .values({
        firm_id: firm.id,
        client_account_id: ids.client_account_id,
        contact_id: ids.contact_id,
        title: truncate(`${FOLLOW_UP_TITLE}: ${s.name}`, 200),
        task_type: 'call',
        notes: s.message ? truncate(s.message, 2000) : null,
        due_at: respondBy,
        repeat: 'none',
        email_me: 'none',
        status: 'open',
        assigned_to_user_id: routing.userId,
        created_by_user_id: ctx.auth.user.id,
        completed_at: null,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    followUpId = task.id;
  }

  const lead = await trx
    .insertInto('leads')
    .values({
      firm_id: firm.id,
      status: spamReason ? 'spam' : 'new',
      name: s.name,
      email: s.email,
      phone: s.phone,
      company: s.company,
      address: s.address,
      message: s.message,
      services: JSON.stringify(s.services),
      timing: s.timing,
      property_type: s.property_type,
      source: s.source,
      source_kind: s.source_kind,
      submitted_at: submittedAt,
      assigned_to_user_id: routing.userId,
      assignment_reason: routing.reason,
      assignment_rule: routing.rule,
      first_contacted_at: null,
      first_contact_kind: null,
      first_contacted_by_user_id: null,
      ...ids,
      follow_up_task_id: followUpId,
      entry_stage: entryStage,
      answers: JSON.stringify(answersOf(s)),
      utm: JSON.stringify(s.utm),
      match_reasons: JSON.stringify(matchReasons),
      created_records: JSON.stringify(created),
      archived_records: null,
      respond_by: respondBy,
      escalated_at: null,
      auto_spam: spamReason ? 1 : 0,
      problem,
      on_leads_pipeline: onLeadsPipeline ? 1 : 0,
      pipeline_stage_id: null,
      estimated_value_cents: null,
      customer_type: null,
      notes: null,
      next_follow_up_at: null,
      replaced_lead_id: s.replacedLeadId ?? null,
      replaced_by_lead_id: null,
      status_changed_at: t,
      created_at: t,
      updated_at: t,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  if (!spamReason && s.notify) {
    const assignee =
      ('user' in routing && routing.user) ||
      (await trx
        .selectFrom('users')
        .select(['name', 'email'])
        .where('id', '=', routing.userId)
        .executeTakeFirstOrThrow());
    await queueLeadAlert(trx, ctx.deps.mail, { firm, lead, assignee, replyTo: ctx.auth.user.email });
  }
  return lead.id;
}
