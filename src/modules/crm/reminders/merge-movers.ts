// Merges move reminders with the record (document 2, Search and merge: "Everything moves over
// (… follow-ups, reminders …)"): a job merge, a customer merge and a contact merge each point the
// merged-away record's reminders at the kept one. A contact merge also hands the merged-away
// person's birthday follow-up marker to the kept person when they have none (one each).
import type { Executor } from '#db/dialect.ts';
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';

type Column = 'job_id' | 'client_account_id' | 'contact_id';

async function countReminders(db: Executor, column: Column, firmId: number, fromId: number): Promise<number> {
  const row = await db
    .selectFrom('reminders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .where(column, '=', fromId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function reminderMover(column: Column): MergeMover {
  return {
    label: 'reminders',
    count: (db, fromId, scope) => countReminders(db, column, scope.firmId, fromId),
    async move(trx, fromId, toId, scope) {
      await trx
        .updateTable('reminders')
        .set({ [column]: toId, updated_at: now() })
        .where('firm_id', '=', scope.firmId)
        .where(column, '=', fromId)
        .execute();
    },
  };
}

const birthdayMarkerMover: MergeMover = {
  label: 'birthday follow-up',
  // No count of its own: the follow-up is counted with the person's company follow-ups.
  async move(trx, fromId, toId, scope) {
    const kept = await trx
      .selectFrom('account_tasks')
      .select('id')
      .where('birthday_contact_id', '=', toId)
      .executeTakeFirst();
    // The kept person's own birthday follow-up wins; the other stays as an ordinary yearly follow-up.
    await trx
      .updateTable('account_tasks')
      .set({ birthday_contact_id: kept ? null : toId })
      .where('firm_id', '=', scope.firmId)
      .where('birthday_contact_id', '=', fromId)
      .execute();
  },
};

export const reminderJobMergeMovers: readonly MergeMover[] = [reminderMover('job_id')];
export const reminderCustomerMergeMovers: readonly MergeMover[] = [reminderMover('client_account_id')];
export const reminderContactMergeMovers: readonly MergeMover[] = [reminderMover('contact_id'), birthdayMarkerMover];
