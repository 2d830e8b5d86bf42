// What merges move of leads: a lead keeps pointing at the records intake matched or made, so a
// merged-away job, customer, person or site hands its leads to the kept one (document 2: a merge
// moves everything over).
import type { Executor } from '#db/dialect.ts';
import type { MergeMover } from '#src/area.ts';

type LeadLink = 'job_id' | 'client_account_id' | 'contact_id' | 'location_id';

function leadMover(column: LeadLink): MergeMover {
  return {
    label: 'leads',
    async count(db: Executor, fromId, scope) {
      const row = await db
        .selectFrom('leads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('firm_id', '=', scope.firmId)
        .where(column, '=', fromId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async move(trx, fromId, toId, scope) {
      await trx
        .updateTable('leads')
        .set({ [column]: toId })
        .where('firm_id', '=', scope.firmId)
        .where(column, '=', fromId)
        .execute();
    },
  };
}

export const leadMergeMovers = {
  job: leadMover('job_id'),
  client_account: leadMover('client_account_id'),
  contact: leadMover('contact_id'),
  location: leadMover('location_id'),
};
