import type { Engine, Executor } from '#db/dialect.ts';
import type { ClientAccount } from '#db/tables.ts';
import { sql } from 'kysely';
import { containsText } from '#db/text-search.ts';

export function findClientAccount(db: Executor, firmId: number, id: number): Promise<ClientAccount | undefined> {
  return db
    .selectFrom('client_accounts')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findClientAccountByRef(db: Executor, firmId: number, ref: string): Promise<ClientAccount | undefined> {
  return db
    .selectFrom('client_accounts')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('external_ref', '=', ref)
    .executeTakeFirst();
}

/** Same-named customers, live ones first, then oldest first. */
export function findClientAccountsByName(db: Executor, firmId: number, key: string): Promise<ClientAccount[]> {
  return db
    .selectFrom('client_accounts')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('name_key', '=', key)
    .orderBy(sql`case when archived_at is null then 0 else 1 end`)
    .orderBy('id')
    .execute();
}

export interface ClientAccountFilter {
  externalRef?: string;
  q?: string;
  includeArchived?: boolean;
  engine: Engine;
}

export async function listClientAccounts(
  db: Executor,
  firmId: number,
  f: ClientAccountFilter,
  limit: number,
  offset: number,
) {
  let base = db.selectFrom('client_accounts').where('firm_id', '=', firmId);
  if (!f.includeArchived) base = base.where('archived_at', 'is', null);
  if (f.externalRef !== undefined) base = base.where('external_ref', '=', f.externalRef);
  if (f.q) base = base.where(containsText(['name'], f.q, f.engine));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
