// Files and the Company Library (document 3, File; Photos, photo tags, files): one stored object
// per `files` row, owned by a job, a customer, a contact or the workspace's library; the library's
// folders; and the links that show a library file in a job's file list. A library file deleted
// takes its links with it (cascade), so it leaves every job at once.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('library_folders')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('library_folders_name')
    .unique()
    .on('library_folders')
    .columns(['firm_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('document_type', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('customer_visible', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('cascade'))
    .addColumn('client_account_id', 'integer', (c) => c.references('client_accounts.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('cascade'))
    // Work orders are not built yet: the column waits for them, without a reference.
    .addColumn('work_order_id', 'integer')
    // A folder holding files cannot be deleted (the service answers 409 first).
    .addColumn('folder_id', 'integer', (c) => c.references('library_folders.id'))
    .addColumn('uploaded_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_firm_created').on('files').columns(['firm_id', 'created_at']).execute();
  await db.schema.createIndex('files_job').on('files').columns(['job_id', 'created_at']).execute();
  await db.schema.createIndex('files_client_account').on('files').column('client_account_id').execute();
  await db.schema.createIndex('files_contact').on('files').column('contact_id').execute();
  await db.schema.createIndex('files_folder').on('files').column('folder_id').execute();

  await db.schema
    .createTable('library_file_jobs')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('attached_by_rule', 'text')
    .addColumn('attached_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('library_file_jobs_pair')
    .unique()
    .on('library_file_jobs')
    .columns(['file_id', 'job_id'])
    .execute();
  await db.schema
    .createIndex('library_file_jobs_job')
    .on('library_file_jobs')
    .columns(['job_id', 'created_at'])
    .execute();
}
