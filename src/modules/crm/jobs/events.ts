// The job events every write path records (document 1, Events): the raw feed events job_created
// and job_status_changed, the business events derived from a stage change (same occurred_at,
// written after, so a higher feed id), and the webhook-only job_created, job_updated and
// job_status_changed (own event_ids) that the webhook worker delivers.
import type { Executor } from '#db/dialect.ts';
import type { JobStage } from '#db/tables.ts';
import { prepareEvent, recordEvent, recordEvents } from '#events/record.ts';

const CLOSED_LOST = new Set(['lost', 'excluded']);

/** Business events a move from `from` (null on creation) into `to` fires, in recording order. */
export function derivedJobEvents(from: JobStage | null, to: JobStage): string[] {
  const events: string[] = [];
  const fromType = from?.type ?? 'open';
  if (to.type === 'won' && fromType !== 'won') events.push('job_won');
  if (CLOSED_LOST.has(to.type) && fromType === 'open') events.push('job_lost');
  if (CLOSED_LOST.has(to.type) && fromType === 'won') events.push('job_cancelled');
  if (to.is_completed === 1 && from?.is_completed !== 1) events.push('job_completed');
  return events;
}

/**
 * A job's stage event: the raw feed event, its webhook-only twin (same occurred_at) and the
 * business events derived from the move (same occurred_at, after it: higher feed ids), written in
 * one statement.
 */
async function recordStageEvent(
  trx: Executor,
  firmId: number,
  jobId: number,
  type: 'job_created' | 'job_status_changed',
  from: JobStage | null,
  to: JobStage,
): Promise<void> {
  const entity = { type: 'job', id: jobId };
  const raw = prepareEvent({
    firmId,
    type,
    entity,
    jobId,
    inFeed: true,
    data: from ? { from_status: from.key, to_status: to.key } : { status: to.key },
  });
  const webhook = prepareEvent({
    firmId,
    type,
    entity,
    jobId,
    inFeed: false,
    occurredAt: raw.occurredAt,
    data: { status_changed: from !== null, previous_status: from?.key ?? null, current_status: to.key },
  });
  const derived = derivedJobEvents(from, to).map((derivedType) =>
    prepareEvent({
      firmId,
      type: derivedType,
      entity,
      jobId,
      inFeed: true,
      occurredAt: raw.occurredAt,
      data: { from_status: from?.key ?? null, to_status: to.key, source_event_id: raw.eventId },
    }),
  );
  await recordEvents(trx, [raw, webhook, ...derived]);
}

export function recordJobCreated(trx: Executor, firmId: number, jobId: number, stage: JobStage): Promise<void> {
  return recordStageEvent(trx, firmId, jobId, 'job_created', null, stage);
}

export function recordJobStatusChanged(
  trx: Executor,
  firmId: number,
  jobId: number,
  from: JobStage,
  to: JobStage,
): Promise<void> {
  return recordStageEvent(trx, firmId, jobId, 'job_status_changed', from, to);
}

/** Storage columns whose API field has another name; internal columns map to null (not shown). */
const API_FIELD: Record<string, string | null> = {
  name_key: null,
  estimated_value_cents: 'estimated_value',
  liquidated_damages_per_day_cents: 'liquidated_damages_per_day',
  own_property_reference: 'property_reference',
  operations_division: 'division',
};

/** A change to the job's details that is not a status change (never both for one API call). */
export async function recordJobUpdated(
  trx: Executor,
  firmId: number,
  jobId: number,
  status: string,
  changedColumns: string[],
): Promise<void> {
  const changed = [
    ...new Set(changedColumns.map((c) => (c in API_FIELD ? API_FIELD[c] : c)).filter((c): c is string => c !== null)),
  ];
  await recordEvent(trx, {
    firmId,
    type: 'job_updated',
    entity: { type: 'job', id: jobId },
    jobId,
    inFeed: false,
    data: { status_changed: false, previous_status: status, current_status: status, changed_fields: changed },
  });
}

export type ProposalEvent = 'proposal_sent' | 'proposal_viewed' | 'proposal_accepted' | 'proposal_declined';

/** The proposal object of proposal_* payloads (document 1). */
export interface ProposalSummary {
  id: number;
  kind: string;
  title: string | null;
  status: string;
  /** Dollars. */
  total: number | null;
  sent_at: string | null;
  actor_user_id: number | null;
}

/** A webhook-only proposal event on its job: the one call the proposals area makes. */
export async function recordProposalEvent(
  trx: Executor,
  firmId: number,
  jobId: number,
  type: ProposalEvent,
  proposal: ProposalSummary,
): Promise<void> {
  const job = await trx
    .selectFrom('jobs')
    .select('status')
    .where('id', '=', jobId)
    .where('firm_id', '=', firmId)
    .executeTakeFirstOrThrow();
  await recordEvent(trx, {
    firmId,
    type,
    entity: { type: 'proposal', id: proposal.id },
    jobId,
    inFeed: false,
    data: { status_changed: false, previous_status: job.status, current_status: job.status, proposal },
  });
}
