// The two messages leads cause, both to teammates (nothing is ever sent to the lead): the new-lead
// alert to the assignee (intake, and assign while nobody has reached out) and the speed-to-lead
// escalation to the workspace owner (the worker, escalation.ts).
import type { Executor } from '#db/dialect.ts';
import type { Firm, Lead, User } from '#db/tables.ts';
import { queueMail } from '#platform/mail/queue.ts';
import { renderMail, teammateFooter } from '#platform/mail/templates.ts';
import type { MailTransport } from '#platform/mail/transport.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { answersOf, TIMING_LABEL } from './rules.ts';
import { servicesOf } from './serialize.ts';

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

function localTime(stored: string, timeZone: string): string {
  const { date, time } = storedToLocal(stored, timeZone);
  return `${date} ${time} (${timeZone})`;
}

function leadFacts(lead: Lead): [string, string | null][] {
  const services = servicesOf(lead);
  return [
    ['Name', lead.name],
    ['Phone', lead.phone],
    ['Email', lead.email],
    ['Company', lead.company],
    ['Address', lead.address],
    ['Services', services.length > 0 ? services.join(', ') : null],
    ['Timing', lead.timing ? (TIMING_LABEL[lead.timing as keyof typeof TIMING_LABEL] ?? lead.timing) : null],
    ['Property type', lead.property_type],
    ['Source', lead.source],
    [
      'Message',
      answersOf({ message: lead.message, services: [], timing: null, property_type: null })[0]?.value ?? null,
    ],
  ];
}

/** Queues the new-lead alert to `assignee` in `trx`; From shows the workspace, Reply-To the acting teammate. */
export async function queueLeadAlert(
  trx: Executor,
  transport: Pick<MailTransport, 'fromAddress'>,
  o: {
    firm: Pick<Firm, 'id' | 'name' | 'timezone'>;
    lead: Lead;
    assignee: Pick<User, 'name' | 'email'>;
    replyTo: string | null;
  },
): Promise<void> {
  const { firm, lead, assignee } = o;
  const paragraphs = [
    `${lead.name} asked about work through ${lead.source ?? 'the API'}, and the lead is yours${
      lead.assignment_reason ? ` (${lead.assignment_reason})` : ''
    }.`,
  ];
  if (lead.respond_by) paragraphs.push(`Reach out by ${localTime(lead.respond_by, firm.timezone)}.`);
  if (lead.problem) paragraphs.push(`Intake could not finish: ${lead.problem}`);
  await queueMail(trx, transport, {
    firmId: firm.id,
    kind: 'lead_alert',
    ref: `lead:${lead.id}`,
    to: assignee.email,
    fromName: firm.name,
    replyTo: o.replyTo,
    mail: renderMail({
      subject: `New lead: ${lead.name}`,
      greeting: `Hi ${firstName(assignee.name)},`,
      paragraphs,
      facts: leadFacts(lead),
      footer: teammateFooter(firm.name),
    }),
  });
}

/** Queues the escalation to the owner: nobody reached out within the window. Worker mail: no Reply-To. */
export async function queueLeadEscalation(
  trx: Executor,
  transport: Pick<MailTransport, 'fromAddress'>,
  o: {
    firm: Pick<Firm, 'id' | 'name' | 'timezone'>;
    lead: Lead;
    owner: Pick<User, 'name' | 'email'>;
    assigneeName: string | null;
    minutes: number;
  },
): Promise<void> {
  const { firm, lead, owner } = o;
  await queueMail(trx, transport, {
    firmId: firm.id,
    kind: 'lead_escalation',
    ref: `lead:${lead.id}`,
    to: owner.email,
    fromName: firm.name,
    replyTo: null,
    mail: renderMail({
      subject: `Nobody has reached out to ${lead.name} yet`,
      greeting: `Hi ${firstName(owner.name)},`,
      paragraphs: [
        `${lead.name} asked about work on ${localTime(lead.submitted_at, firm.timezone)} and is still waiting: nobody has called, emailed or met them within the ${o.minutes}-minute speed-to-lead window.`,
        `The lead is assigned to ${o.assigneeName ?? 'a teammate'}.`,
      ],
      facts: leadFacts(lead),
      footer: teammateFooter(firm.name),
    }),
  });
}
