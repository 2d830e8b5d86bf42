// Assessment report links and capital plan links (document 2, Tag, portal message, review, share
// links). An assessment has any number of report links, each made by one call (scoped to some of
// its services or showing them all) and revocable for good; a site has at most one capital plan
// link, turned off and on again with a new token, or rotated. Tokens are never stored: a row keeps
// the salt they are derived from and their SHA-256 (platform/link-tokens.ts). A link that stopped
// also leaves its hash in retired_links, so its page says why (410).
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('assessment_share_links')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('assessment_id', 'integer', (c) => c.notNull().references('site_assessments.id').onDelete('cascade'))
    .addColumn('token_salt', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // JSON array of assessment service ids, ascending; null for a link showing every service.
    .addColumn('service_type_ids', 'text')
    .addColumn('label', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assessment_share_links_assessment')
    .on('assessment_share_links')
    .columns(['assessment_id', 'id'])
    .execute();

  await db.schema
    .createTable('plan_share_links')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('location_id', 'integer', (c) => c.notNull().unique().references('locations.id').onDelete('cascade'))
    .addColumn('token_salt', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
