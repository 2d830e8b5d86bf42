// Telling the office when a customer acts on one of its links (docs/api-decisions.md, "Customer
// alerts"): accepting or declining a proposal, paying an invoice online, signing or declining a
// change order, a portal message or map comment, a review. Each action queues one alert per
// recipient (recipients.ts: the job's assignee, else the workspace's owners) in the transaction of
// the action itself, so an answer that rolls back alerts nobody and one that commits is never lost;
// the worker sends them. Nothing here is ever addressed to the customer.
//
// The mail follows the teammate mail the leads and reminders send (leads/mail.ts,
// reminders/due-mail.ts): From the workspace, no Reply-To (no teammate acted), greeting by name,
// facts as label and value rows, times in the workspace's zone with the zone named, the teammate
// footer. The office has no screen in this server, so the mail names the API calls that read the
// record instead of a link.
import type { Executor } from '#db/dialect.ts';
import { queueMail } from '#platform/mail/queue.ts';
import { renderMail, teammateFooter } from '#platform/mail/templates.ts';
import type { MailTransport } from '#platform/mail/transport.ts';
import { localWhen } from '#platform/time-zone.ts';
import { alertRecipients } from './recipients.ts';

/** What the customer did: the mail's kind is `<action>_alert` (lead_alert's convention). */
export type CustomerAction =
  | 'proposal_accepted'
  | 'proposal_declined'
  | 'invoice_paid'
  | 'change_order_approved'
  | 'change_order_declined'
  | 'portal_message'
  | 'map_comment'
  | 'review';

export interface CustomerAlert {
  action: CustomerAction;
  firmId: number;
  jobId: number;
  /** The record it is about, as the mail queue keeps it: `proposal:12`. */
  ref: string;
  /** What the customer did, as the subject says it after their name: "accepted proposal 1042". */
  did: string;
  /** When it happened (stored UTC). */
  at: string;
  /** What the customer wrote (a message, a reason, a review), quoted in its own paragraph. */
  said?: string | null;
  /** The figures and details first (Total, Amount paid, Change …); empty values are left out. */
  facts: readonly (readonly [string, string | null])[];
  /** The API calls that read the record: `GET /v1/proposals/12`. */
  api: readonly string[];
}

/** Queues the alert of `alert` in `trx` (the action's transaction); answers how many messages. */
export async function queueCustomerAlert(
  trx: Executor,
  transport: Pick<MailTransport, 'fromAddress'>,
  alert: CustomerAlert,
): Promise<number> {
  const job = await trx
    .selectFrom('jobs')
    .innerJoin('firms', 'firms.id', 'jobs.firm_id')
    .leftJoin('client_accounts as ca', 'ca.id', 'jobs.client_account_id')
    .select([
      'jobs.name',
      'jobs.job_number',
      'jobs.company',
      'jobs.contact_name',
      'jobs.assigned_to_user_id',
      'ca.name as account_name',
      'firms.name as firm_name',
      'firms.timezone',
    ])
    .where('jobs.id', '=', alert.jobId)
    .where('jobs.firm_id', '=', alert.firmId)
    .executeTakeFirstOrThrow();
  const recipients = await alertRecipients(trx, alert.firmId, job.assigned_to_user_id);
  // The customer as the office knows them: the job's company account, else what the job says.
  const customer = [job.account_name, job.company, job.contact_name].find((n) => n && n.trim() !== '')?.trim();
  const who = customer ?? 'A customer';
  const jobLabel = `job ${job.job_number}, ${job.name}`;
  for (const to of recipients)
    await queueMail(trx, transport, {
      firmId: alert.firmId,
      kind: `${alert.action}_alert`,
      ref: alert.ref,
      to: to.email,
      fromName: job.firm_name,
      replyTo: null,
      mail: renderMail({
        subject: `${who} ${alert.did}`,
        greeting: `Hi ${to.name},`,
        paragraphs: [`${who} ${alert.did} on ${jobLabel}.`, ...(alert.said ? [`“${alert.said}”`] : [])],
        facts: [
          ...alert.facts,
          ['Job', `${job.name} (job ${job.job_number})`],
          ['Customer', customer ?? null],
          ['When', localWhen(alert.at, job.timezone)],
          ['In the API', alert.api.join(' · ')],
        ],
        footer: teammateFooter(job.firm_name),
      }),
    });
  return recipients.length;
}
