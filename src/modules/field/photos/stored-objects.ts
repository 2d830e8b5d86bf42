// The objects of a job's photos (each upload or its upright copy, and the thumbnail), for a job
// deleted outright (src/area.ts, storedObjects): the rows go by cascade, the objects after the
// delete's commit.
import type { StoredObjectsOf } from '#src/area.ts';

export const jobPhotoObjects: StoredObjectsOf = async (trx, firmId, jobId) =>
  (
    await trx
      .selectFrom('photos')
      .select(['storage_key', 'thumbnail_key'])
      .where('firm_id', '=', firmId)
      .where('job_id', '=', jobId)
      .execute()
  ).flatMap((p) => (p.thumbnail_key === null ? [p.storage_key] : [p.storage_key, p.thumbnail_key]));
