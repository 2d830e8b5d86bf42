// The lead transitions other records cause (document 2, Lead states), each called in the
// transaction of the change that causes it:
// - a call, email or meeting logged with the person (notes on the lead's contact, job or company;
//   activities naming the lead or those records) moves a new lead to contacted;
// - completing the Call new lead follow-up does too (the account-tasks service and bulk follow-ups
//   call leadFollowUpCompleted);
// - the lead's job leaving its first stage for an open or won stage converts it (jobs/stage-change.ts).
import type { Transaction } from 'kysely';
import type { AccountTask, DB, JobStage, Lead } from '#db/tables.ts';
import type { AuthContext } from '#platform/auth.ts';
import { now } from '#platform/time.ts';
import { leadsWaitingOn } from './repo.ts';
import { REACHING_OUT, type FirstContactKind } from './rules.ts';

type Trx = Transaction<DB>;

/** Closes the lead's Call new lead follow-up when it is still open. */
export async function closeLeadFollowUp(trx: Trx, lead: Pick<Lead, 'follow_up_task_id'>, at: string): Promise<void> {
  if (lead.follow_up_task_id === null) return;
  await trx
    .updateTable('account_tasks')
    .set({ status: 'done', completed_at: at, updated_at: at })
    .where('id', '=', lead.follow_up_task_id)
    .where('status', '=', 'open')
    .execute();
}

/** new -> contacted: first_contacted_* recorded, the follow-up closes. Other states are left alone. */
export async function markLeadContacted(
  trx: Trx,
  auth: AuthContext,
  lead: Lead,
  kind: FirstContactKind,
): Promise<boolean> {
  if (lead.status !== 'new') return false;
  const t = now();
  const res = await trx
    .updateTable('leads')
    .set({
      status: 'contacted',
      first_contacted_at: lead.first_contacted_at ?? t,
      first_contact_kind: lead.first_contact_kind ?? kind,
      first_contacted_by_user_id: lead.first_contacted_at ? lead.first_contacted_by_user_id : auth.user.id,
      status_changed_at: t,
      updated_at: t,
    })
    .where('id', '=', lead.id)
    .where('status', '=', 'new')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return false;
  await closeLeadFollowUp(trx, lead, t);
  return true;
}

export interface InteractionLinks {
  leadId?: number | null;
  contactId?: number | null;
  jobId?: number | null;
  clientAccountId?: number | null;
}

/** A note or activity of `type` was logged on these records: new leads waiting on them are contacted. */
export async function leadInteractionLogged(
  trx: Trx,
  auth: AuthContext,
  links: InteractionLinks,
  type: string,
): Promise<void> {
  if (!REACHING_OUT.includes(type)) return;
  for (const lead of await leadsWaitingOn(trx, auth.firm.id, links, ['new'])) {
    await markLeadContacted(trx, auth, lead, type as FirstContactKind);
  }
}

/** A company follow-up was completed: when it is a lead's Call new lead follow-up, the lead is contacted. */
export async function leadFollowUpCompleted(
  trx: Trx,
  auth: AuthContext,
  accountTask: Pick<AccountTask, 'id' | 'firm_id'>,
): Promise<void> {
  const leads = await trx
    .selectFrom('leads')
    .selectAll()
    .where('firm_id', '=', accountTask.firm_id)
    .where('follow_up_task_id', '=', accountTask.id)
    .where('status', '=', 'new')
    .execute();
  for (const lead of leads) await markLeadContacted(trx, auth, lead, 'task');
}

/** Converts `lead` (new or contacted) to converted. */
export async function markLeadConverted(trx: Trx, lead: Pick<Lead, 'id'>): Promise<void> {
  const t = now();
  await trx
    .updateTable('leads')
    .set({ status: 'converted', status_changed_at: t, updated_at: t })
    .where('id', '=', lead.id)
    .where('status', 'in', ['new', 'contacted'])
    .execute();
}

/**
 * The job moved from `from` to `to`: a new or contacted lead whose job this is, and whose job
 * opened in `from`, is converted when `to` is an open or won stage (a move to a lost or excluded
 * stage is not moving forward; the lead stays where it is).
 */
export async function leadJobLeftStage(
  trx: Trx,
  auth: AuthContext,
  jobId: number,
  from: JobStage,
  to: JobStage,
): Promise<void> {
  if (from.key === to.key || (to.type !== 'open' && to.type !== 'won')) return;
  const leads = await trx
    .selectFrom('leads')
    .select(['id', 'entry_stage'])
    .where('firm_id', '=', auth.firm.id)
    .where('job_id', '=', jobId)
    .where('status', 'in', ['new', 'contacted'])
    .execute();
  for (const lead of leads) if (lead.entry_stage === from.key) await markLeadConverted(trx, lead);
}
