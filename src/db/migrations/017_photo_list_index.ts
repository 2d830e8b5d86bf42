// GET /v1/photos lists a workspace's photos newest first (created_at, then id, descending). With
// no index in that order, both engines read every photo of the workspace and sorted them to answer
// one page: the page query took 20 ms at 10k photos and 1.0 s (PostgreSQL) to 1.8 s (SQLite) at 1M
// (docs/performance.md, "Photos"). This index holds the order, so a page is read from its end,
// and costs the same at any size.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('photos_firm_created').on('photos').columns(['firm_id', 'created_at', 'id']).execute();
}
