// Company follow-ups' queries: the shared list rules of every follow-up (crm/tasks/follow-up-query.ts)
// over account_tasks, narrowed to a customer.
import type { Executor } from '#db/dialect.ts';
import { type FollowUpFilter, listFollowUps, withAssignee } from '#crm/tasks/follow-up-query.ts';
import type { AccountTaskRow } from './serialize.ts';

export async function findAccountTask(db: Executor, firmId: number, id: number): Promise<AccountTaskRow | undefined> {
  return withAssignee(db, 'account_tasks')
    .where('account_tasks.firm_id', '=', firmId)
    .where('account_tasks.id', '=', id)
    .executeTakeFirst();
}

export interface AccountTaskFilter extends FollowUpFilter {
  clientAccountId?: number;
}

/** Soonest due first (undated last); with updatedAfter, oldest updated first. */
export function listAccountTasks(db: Executor, firmId: number, f: AccountTaskFilter, limit: number, offset: number) {
  return listFollowUps(db, 'account_tasks', {
    firmId,
    filter: f,
    parent: { column: 'account_tasks.client_account_id', id: f.clientAccountId },
    limit,
    offset,
  });
}
