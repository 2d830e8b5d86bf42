// Photos (document 3, Photo): one stored image or phone video per row, its thumbnail, and the
// photo tags it carries. A client_uid is unique per workspace, so a repeated upload (also two at
// once) finds the first one's row instead of making a second.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('photos')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('is_video', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('filename', 'text')
    .addColumn('caption', 'text')
    .addColumn('title', 'text')
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('include_in_report', 'integer', (c) => c.notNull())
    .addColumn('taken_at', 'text', (c) => c.notNull())
    .addColumn('taken_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('compass_heading', 'integer')
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('client_uid', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('photos_client_uid').unique().on('photos').columns(['firm_id', 'client_uid']).execute();
  await db.schema
    .createIndex('photos_job_gallery')
    .on('photos')
    .columns(['job_id', 'sort_order', 'taken_at'])
    .execute();
  await db.schema.createIndex('photos_firm_updated').on('photos').columns(['firm_id', 'updated_at']).execute();

  await db.schema
    .createTable('photo_tag_links')
    .addColumn('photo_id', 'integer', (c) => c.notNull().references('photos.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('photo_tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('photo_tag_links_pk', ['photo_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('photo_tag_links_tag').on('photo_tag_links').column('tag_id').execute();
}
