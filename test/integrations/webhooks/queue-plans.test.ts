// PostgreSQL: the webhook queue's statements run on connections of their own (Database.queue,
// src/db/database.ts QUEUE_PLANS) whose plans walk the indexes however small the queue looks when
// a statement is planned: a named statement keeps its first plans, and one made while the queue was
// small scanned the table, or read every due delivery and sorted them, after a burst had made it
// large. Checked on a small queue the statistics know, where the planner's own choice is a scan.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job as makeJob } from '#test/helpers/records.ts';
import { subscribe } from './kit.ts';

const POSTGRES = (process.env.DATABASE_URL ?? '').startsWith('postgres');

let t: TestApp;
beforeAll(async () => {
  if (POSTGRES) t = await startApp();
});
afterAll(() => t?.close());

const planOf = async (db: TestApp['database']['db'], text: string) =>
  (await sql.raw<{ 'QUERY PLAN': string }>(`explain ${text}`).execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n');

// The claim's candidates (delivery-statements.ts claimTail) and the record's join on the id.
const DUE = `select id, subscription_id, next_attempt_at from webhook_deliveries
  where status = 'pending' and next_attempt_at <= '2099-01-01' and (locked_until is null or locked_until <= '2099-01-01')
  order by next_attempt_at, id limit 64`;
const BY_ID = `select d.id from webhook_deliveries d join (values (1, 'a'), (2, 'b')) as v (id, token)
  on d.id = v.id and d.lease_token = v.token`;

describe.runIf(POSTGRES)('the webhook queue plans on PostgreSQL', () => {
  it('walks the due index in order and finds deliveries by id, on a small queue too', async () => {
    const w = await t.workspace();
    await subscribe(w, { target_url: 'http://127.0.0.1:9/hooks', event_type: 'job_created' });
    for (let i = 0; i < 20; i++) await makeJob(w, { name: `Small Queue ${i}` });
    await sql`analyze webhook_deliveries`.execute(t.database.db);
    const queue = t.database.queue!;
    const due = await planOf(queue, DUE);
    expect(due).toMatch(/Index Scan using webhook_deliveries_due/);
    expect(due).not.toMatch(/Seq Scan|Bitmap|Sort/);
    const byId = await planOf(queue, BY_ID);
    expect(byId).toMatch(/Index Scan using webhook_deliveries_pkey/);
    expect(byId).not.toMatch(/Seq Scan|Bitmap/);
    // The same reads on the API's connections: the planner's own choice for a table this small.
    expect(`${await planOf(t.database.db, DUE)}\n${await planOf(t.database.db, BY_ID)}`).toMatch(/Seq Scan|Bitmap/);
  });
});
