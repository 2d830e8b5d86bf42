// Pin photos (document 3, Site assessments and pins: POST /v1/assessment-pins/{id}/photos): a
// photo of the pin's job shown on the pin. A duplicated assessment's pins link the same photos
// (shared, not uploaded again), so a photo may be on several pins; deleting a pin or a photo
// drops its links.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema
    .createTable('assessment_pin_photos')
    .addColumn('pin_id', 'integer', (c) => c.notNull().references('assessment_pins.id').onDelete('cascade'))
    .addColumn('photo_id', 'integer', (c) => c.notNull().references('photos.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('assessment_pin_photos_pk', ['pin_id', 'photo_id'])
    .execute();
  await db.schema.createIndex('assessment_pin_photos_photo').on('assessment_pin_photos').column('photo_id').execute();
}
