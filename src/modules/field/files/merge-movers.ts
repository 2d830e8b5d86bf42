// What merges move (src/area.ts, mergeMovers): a job merge moves the merged-away job's files and
// its links to library files (a library file already linked to the kept job keeps the kept job's
// link); a customer or contact merge moves the files of the merged-away record. Stored objects are
// untouched: only the record a file hangs on changes.
import type { Executor } from '#db/dialect.ts';
import type { MergeMover } from '#src/area.ts';

type Owner = 'client_account_id' | 'contact_id';

async function countFiles(db: Executor, firmId: number, column: Owner, id: number): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .where(column, '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function ownerMover(column: Owner): MergeMover {
  return {
    label: 'files',
    count: (db, fromId, scope) => countFiles(db, scope.firmId, column, fromId),
    async move(trx, fromId, toId, scope) {
      await trx
        .updateTable('files')
        .set({ [column]: toId })
        .where('firm_id', '=', scope.firmId)
        .where(column, '=', fromId)
        .execute();
    },
  };
}

export const fileJobMergeMovers: readonly MergeMover[] = [
  {
    label: 'files',
    async move(trx, fromId, toId) {
      await trx.updateTable('files').set({ job_id: toId }).where('job_id', '=', fromId).execute();
      const keptLinks = await trx
        .selectFrom('library_file_jobs')
        .select('file_id')
        .where('job_id', '=', toId)
        .execute();
      if (keptLinks.length > 0)
        await trx
          .deleteFrom('library_file_jobs')
          .where('job_id', '=', fromId)
          .where(
            'file_id',
            'in',
            keptLinks.map((l) => l.file_id),
          )
          .execute();
      await trx.updateTable('library_file_jobs').set({ job_id: toId }).where('job_id', '=', fromId).execute();
    },
  },
];

export const fileAccountMergeMovers: readonly MergeMover[] = [ownerMover('client_account_id')];
export const fileContactMergeMovers: readonly MergeMover[] = [ownerMover('contact_id')];
