// A webhook delivery is updated twice an attempt: the claim writes its lease (locked_until,
// lease_token), then the record its outcome. The lease's columns are in no index, so PostgreSQL
// can write that new row version beside the old one and skip all five of the table's indexes (a
// HOT update), but only if the page has room: packed full, as rows are inserted, it seldom had (827
// HOT updates in 22,000 during a drain), and nearly every claim added five index entries. Pages
// kept 30% free leave room for the lease (7,776 HOT in 22,000): 13% more deliveries a second
// through one worker (docs/performance.md, "Webhook delivery").
// Applies to pages written from now on. SQLite rewrites a row in place: nothing to change there.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine !== 'postgres') return;
  await sql`alter table webhook_deliveries set (fillfactor = 70)`.execute(db);
}
