// Condition ratings (document 3, "Condition ratings"; issue 26): every successful rating is kept,
// which is both the workspace's usage of ratings (each success counts as one call; the operator
// reads the counts) and, for a rating that names a site (location_id), that site's ratings
// history. A PCI rating of a site also sets the site's pci (the properties export's field).
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('locations').addColumn('pci', 'double precision').execute();
  await db.schema
    .createTable('condition_ratings')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    /** The answer's request_id: one rating, one id. */
    .addColumn('request_id', 'text', (c) => c.notNull().unique())
    /** paser or pci. */
    .addColumn('rating_type', 'text', (c) => c.notNull())
    .addColumn('location_id', 'integer', (c) => c.references('locations.id').onDelete('set null'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('api_key_id', 'integer')
    /** The PCI score (0–100) or the PASER rating (1–10). */
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    /** standard, premium, upload or url. */
    .addColumn('source', 'text', (c) => c.notNull())
    /** The rating result as answered, without the returned image's bytes. */
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('rated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('condition_ratings_firm_rated')
    .on('condition_ratings')
    .columns(['firm_id', 'rated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('condition_ratings_location')
    .on('condition_ratings')
    .columns(['location_id', 'rated_at', 'id'])
    .execute();
}
