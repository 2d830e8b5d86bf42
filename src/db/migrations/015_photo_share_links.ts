// Photo share links (document 2, Tag, portal message, review, share links): a job's photo report
// link (at most one per job, turned off and on again with a new token) and its chosen-photo links
// (any number, each expiring, revocable for good), with the photos each one shows, in order.
// Tokens are never stored: a row keeps the salt they are derived from and their SHA-256
// (platform/link-tokens.ts). An access code is kept as a scrypt hash with its parameters.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('photo_share_links')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().unique().references('jobs.id').onDelete('cascade'))
    .addColumn('token_salt', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('access_code_hash', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_window_start', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('photo_selection_shares')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('title', 'text')
    .addColumn('token_salt', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('photo_selection_shares_job')
    .on('photo_selection_shares')
    .columns(['job_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('photo_selection_share_photos')
    .addColumn('share_id', 'integer', (c) => c.notNull().references('photo_selection_shares.id').onDelete('cascade'))
    .addColumn('photo_id', 'integer', (c) => c.notNull().references('photos.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('photo_selection_share_photos_pk', ['share_id', 'photo_id'])
    .execute();
  await db.schema
    .createIndex('photo_selection_share_photos_photo')
    .on('photo_selection_share_photos')
    .column('photo_id')
    .execute();
}
