// The demo workspace's customer links (src/seed/demo-links.ts): which ones `serve` prints on every
// start, not only the first. A row keeps what the link's own row keeps, its kind and salt, from
// which the token is derived again with the server secret (platform/link-tokens.ts); the token
// itself is never stored.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema
    .createTable('demo_links')
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('path_prefix', 'text', (c) => c.notNull())
    .addColumn('link_kind', 'text', (c) => c.notNull())
    .addColumn('token_salt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('demo_links_pk', ['firm_id', 'position'])
    .execute();
}
