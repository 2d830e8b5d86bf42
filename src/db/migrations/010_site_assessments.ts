// Site assessments and their pins (document 3, Site assessments and pins). A job has at most one
// open assessment: the partial unique index holds that even if a writer forgot the workspace lock.
// Pins outside an assessment ("loose") keep their job and wait to join the next one.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('site_assessments')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('location_id', 'integer', (c) => c.references('locations.id').onDelete('set null'))
    .addColumn('scope', 'text', (c) => c.notNull()) // job | location
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('status', 'text', (c) => c.notNull()) // open | completed
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('completed_at', 'text')
    .addColumn('completed_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // The handoff snapshot of the last completion (JSON), kept through a reopen until the next one.
    .addColumn('handoff', 'text')
    .addColumn('duplicated_from_id', 'integer', (c) => c.references('site_assessments.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_assessments_one_open')
    .unique()
    .on('site_assessments')
    .column('job_id')
    .where(sql.ref('status'), '=', 'open')
    .execute();
  await db.schema
    .createIndex('site_assessments_firm_updated')
    .on('site_assessments')
    .columns(['firm_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('assessment_pins')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('assessment_id', 'integer', (c) => c.references('site_assessments.id').onDelete('cascade'))
    // The n of "Crack Sealing n" / "Pin n": per assessment (or the job's loose pins) and service.
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('latitude', 'double precision', (c) => c.notNull())
    .addColumn('longitude', 'double precision', (c) => c.notNull())
    .addColumn('service_type_id', 'integer', (c) => c.references('assessment_services.id').onDelete('set null'))
    .addColumn('tag_id', 'integer', (c) => c.references('photo_tags.id').onDelete('set null'))
    .addColumn('defect_type_id', 'integer')
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('size', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('keep_for_proposal', 'integer', (c) => c.notNull())
    .addColumn('measurement_type', 'text', (c) => c.notNull())
    .addColumn('measurement_value', 'double precision')
    .addColumn('measurement_unit', 'text')
    .addColumn('measurement_data', 'text', (c) => c.notNull()) // JSON object
    .addColumn('length_ft', 'double precision')
    .addColumn('width_ft', 'double precision')
    .addColumn('depth_in', 'double precision')
    .addColumn('ai_severity', 'text')
    .addColumn('ai_rationale', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assessment_pins_assessment')
    .on('assessment_pins')
    .columns(['assessment_id', 'id'])
    .execute();
  await db.schema
    .createIndex('assessment_pins_job')
    .on('assessment_pins')
    .columns(['job_id', 'assessment_id'])
    .execute();
  await db.schema
    .createIndex('assessment_pins_firm_updated')
    .on('assessment_pins')
    .columns(['firm_id', 'updated_at'])
    .execute();
}
