// The JSON body of a delivery (document 1, "Business event payload" and "Job and proposal event
// payload"), built when the delivery is queued, so a replay queued later shows the current record.
import type { Executor } from '#db/dialect.ts';
import type { Event } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import { contributions } from '#src/area.ts';

/** Version label of the payloads (year-month of the events release). */
export const PAYLOAD_API_VERSION = '2026-09';

async function jobOf(db: Executor, event: Event): Promise<unknown> {
  const part = contributions().payloadParts.find((p) => p.field === 'job');
  // The CRM area contributes it (crm/jobs/webhook-job.ts).
  if (!part) throw new Error('no area contributes the job payload part');
  return event.job_id === null ? null : part.build(db, event);
}

export async function buildPayload(db: Executor, event: Event): Promise<string> {
  const data = JSON.parse(event.data) as Record<string, unknown>;
  if (event.in_feed === 1) {
    const body: Record<string, unknown> = {
      event_type: event.event_type,
      event_id: event.event_id,
      api_version: PAYLOAD_API_VERSION,
      occurred_at: zWire(event.occurred_at),
      created_at: zWire(event.created_at),
      firm_id: event.firm_id,
      entity: { type: event.entity_type, id: event.entity_id },
      data,
    };
    if (event.job_id !== null) body.job = await jobOf(db, event);
    for (const part of contributions().payloadParts) {
      if (part.field !== 'job' && part.appliesTo(event)) body[part.field] = await part.build(db, event);
    }
    return JSON.stringify(body);
  }
  const { status_changed, previous_status, current_status, proposal, ...rest } = data;
  return JSON.stringify({
    event_type: event.event_type,
    event_id: event.event_id,
    // Job and proposal payloads carry microseconds and Z (document 1).
    created_at: `${event.created_at}Z`,
    firm_id: event.firm_id,
    status_changed: status_changed ?? false,
    previous_status: previous_status ?? null,
    current_status: current_status ?? null,
    ...rest,
    job: await jobOf(db, event),
    ...(proposal !== undefined ? { proposal } : {}),
  });
}
