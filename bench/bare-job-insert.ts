// The baseline POST /v1/jobs is measured against (docs/performance.md, "A durable write against
// the bare inserts"): a bare Fastify route that writes what creating a job must write, and nothing
// else, in one transaction through the same Kysely instance and driver as the app. The workspace's
// job number and feed counters, the job row (its search-index triggers fire as for the app's), its
// two job_created events (the feed's and the webhook's) and its stage's job count; then the job row
// back as JSON. No validation, no stage lookup, no duplicate-name check, no API shaping: the cost
// of the bookkeeping alone, which the real route may spend at most as much again on.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '#db/database.ts';
import { now } from '#platform/time.ts';

interface BareJobBody {
  name: string;
  contact_email?: string;
  job_type?: string;
  estimated_value?: number;
  source?: string;
}

export function bareJobInsertRoute(app: FastifyInstance, database: Database, firmId: number, ownerId: number): void {
  app.post('/bare-jobs', async (request, reply) => {
    const body = request.body as BareJobBody;
    const job = await database.db.transaction().execute(async (trx) => {
      const t = now();
      const counters = await sql<{ job_number: number }>`update firms
          set next_job_number = next_job_number + 1, feed_events = feed_events + 1
          where id = ${firmId} returning next_job_number - 1 as job_number`.execute(trx);
      const jobNumber = Number(counters.rows[0]!.job_number);
      const inserted = await sql<Record<string, unknown>>`insert into jobs (firm_id, name, name_key, contact_email,
          job_type, status, source, priority, estimated_value_cents, measurement_count, custom_fields,
          assigned_to_user_id, job_number, description_customer_visible, created_at, updated_at)
        values (${firmId}, ${body.name}, ${body.name.toLowerCase()}, ${body.contact_email ?? null},
          ${body.job_type ?? null}, 'lead', ${body.source ?? null}, 'normal',
          ${body.estimated_value === undefined ? null : Math.round(body.estimated_value * 100)}, 0, '{}',
          ${ownerId}, ${jobNumber}, 0, ${t}, ${t})
        returning *`.execute(trx);
      const row = inserted.rows[0]!;
      const event = (inFeed: number, data: unknown) =>
        sql`(${firmId}, ${randomUUID()}, 'job_created', ${inFeed}, ${t}, ${t}, 'job', ${row.id}, ${row.id}, ${JSON.stringify(data)})`;
      await sql`insert into events (firm_id, event_id, event_type, in_feed, occurred_at, created_at, entity_type,
          entity_id, job_id, data)
        values ${event(1, { status: 'lead' })}, ${event(0, { status_changed: false, previous_status: null, current_status: 'lead' })}`.execute(
        trx,
      );
      await sql`insert into job_counts (firm_id, status, count) values (${firmId}, 'lead', 1)
        on conflict (firm_id, status) do update set count = job_counts.count + 1`.execute(trx);
      return row;
    });
    return reply.status(201).send({ data: job, created: true });
  });
}
