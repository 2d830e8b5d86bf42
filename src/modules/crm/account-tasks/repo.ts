import type { Executor } from '#db/dialect.ts';
import { syncPage, type GroupRest } from '#platform/sync.ts';
import { orderFollowUps, whereFollowUps, type FollowUpFilter } from '#crm/tasks/follow-up-query.ts';
import type { AccountTaskRow } from './serialize.ts';

function withAssignee(db: Executor) {
  return db
    .selectFrom('account_tasks')
    .leftJoin('users as au', 'au.id', 'account_tasks.assigned_to_user_id')
    .selectAll('account_tasks')
    .select('au.name as assignee_name');
}

export async function findAccountTask(db: Executor, firmId: number, id: number): Promise<AccountTaskRow | undefined> {
  return withAssignee(db)
    .where('account_tasks.firm_id', '=', firmId)
    .where('account_tasks.id', '=', id)
    .executeTakeFirst();
}

export interface AccountTaskFilter extends FollowUpFilter {
  clientAccountId?: number;
}

/** Soonest due first (undated last); with updatedAfter, oldest updated first. */
export async function listAccountTasks(
  db: Executor,
  firmId: number,
  f: AccountTaskFilter,
  limit: number,
  offset: number,
) {
  const filter = <QB extends { where: (...args: any[]) => QB }>(qb: QB, rest?: GroupRest): QB => {
    qb = whereFollowUps(qb, 'account_tasks', firmId, f, rest);
    return f.clientAccountId === undefined ? qb : qb.where('account_tasks.client_account_id', '=', f.clientAccountId);
  };
  const rows = (rest?: GroupRest) => orderFollowUps(filter(withAssignee(db), rest), 'account_tasks', f.updatedAfter);
  const count = filter(db.selectFrom('account_tasks').select((eb) => eb.fn.countAll<number>().as('n')));
  const window = f.updatedAfter;
  const data =
    window !== undefined
      ? syncPage(window, { limit, offset }, (rest) =>
          (rest ? rows(rest) : rows().limit(limit).offset(offset)).execute(),
        )
      : rows().limit(limit).offset(offset).execute();
  const [page, n] = await Promise.all([data, count.executeTakeFirstOrThrow()]);
  return { rows: page as AccountTaskRow[], total: Number(n.n) };
}
