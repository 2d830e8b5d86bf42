// Customer links that stopped (GUIDE "Customer pages"): a link turned off, rotated, regenerated or
// revoked keeps its token's hash here, so opening it shows "this link was turned off" (410)
// instead of "no such link" (404). One table for every kind of link (photo report, photo
// selection, assessment report, capital plan, and the proposal and invoice links to come).
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema
    .createTable('retired_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'text', (c) => c.notNull())
    .execute();
}
