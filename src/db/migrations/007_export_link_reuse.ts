// Export download links are shown again: one link per workspace_data file, kept with its token so
// every poll of the file answers the same link until the file expires (GET /v1/exports/files/{id}
// used to add a row per poll). The hash stays the download's lookup key; links made before this
// have no token and keep working, the next poll makes the file's reusable one.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('export_file_links').addColumn('token', 'text').execute();
  await db.schema
    .createIndex('export_file_links_file')
    .on('export_file_links')
    .columns(['export_file_id', 'id'])
    .execute();
}
