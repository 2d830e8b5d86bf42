// The estimate-totals report lists a workspace's estimates newest first, 200 to a page: without an
// index in that order PostgreSQL sorted every estimate of the range (100,000, spilling to disk) to
// keep 200, as long as the report's whole aggregate (docs/performance.md, "Owner reports"). Walking
// this index backward it stops after the page: 72 → 5 ms at 100,000 estimates. PostgreSQL only:
// SQLite, given the same index, read the report's range aggregates through it too, a table lookup
// per estimate where a scan is cheaper (its groups 88 → 157 ms), and its page already reads the
// capped jobs' estimates by job. created_at never changes, so this index never stops an update of
// an estimate from being HOT.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine !== 'postgres') return;
  await sql`create index estimates_firm_created on estimates (firm_id, created_at, id)`.execute(db);
}
