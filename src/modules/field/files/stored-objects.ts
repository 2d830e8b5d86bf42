// The objects of files that go with a job or a contact deleted outright (src/area.ts,
// storedObjects): the rows go by cascade, their objects after the delete's commit. A library file
// linked to a deleted job stays in the library; only its link goes.
import type { StoredObjectsOf } from '#src/area.ts';

const filesOf =
  (column: 'job_id' | 'contact_id'): StoredObjectsOf =>
  async (trx, firmId, id) =>
    (
      await trx.selectFrom('files').select('storage_key').where('firm_id', '=', firmId).where(column, '=', id).execute()
    ).map((r) => r.storage_key);

export const jobFileObjects = filesOf('job_id');
export const contactFileObjects = filesOf('contact_id');
