import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';

/** A user of the workspace who has not been removed. */
export function findActiveUser(db: Executor, firmId: number, userId: number): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

export async function listActiveUsers(db: Executor, firmId: number, limit: number, offset: number) {
  const base = db.selectFrom('users').where('firm_id', '=', firmId).where('removed_at', 'is', null);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
