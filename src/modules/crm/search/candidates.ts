// The candidate query shared by the record types kept in one table each (customers, contacts,
// sites): live records of the workspace whose text matches, newest first, at most CANDIDATES.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';
import { CANDIDATES, matchCondition } from './query.ts';
import type { SearchQuery } from '#src/area.ts';
import type { SearchCaller } from '#src/area.ts';

type RecordTable = 'client_accounts' | 'contacts' | 'locations';

/** Live (not archived) records of the caller's workspace, with `columns` selected. */
export function liveRecords<T extends RecordTable>(
  qb: SelectQueryBuilder<DB, any, {}>,
  table: T,
  caller: SearchCaller,
  columns: readonly (keyof DB[T] & string)[],
) {
  return qb
    .where(`${table}.firm_id` as any, '=', caller.firmId)
    .where(`${table}.archived_at` as any, 'is', null)
    .select(columns.map((c) => `${table}.${c}`) as any);
}

/**
 * Records whose indexed text matches: on SQLite through the type's FTS5 table (it drives the
 * query and yields newest first), on PostgreSQL through the trigram index on `pgExpression`.
 */
export function textCandidates<T extends RecordTable, R>(
  db: Executor,
  caller: SearchCaller,
  q: SearchQuery,
  table: T,
  ftsTable: string,
  pgExpression: string,
  columns: readonly (keyof DB[T] & string)[],
): Promise<R[]> {
  const qb =
    caller.engine === 'sqlite'
      ? ((db.selectFrom(sql.table(ftsTable).as('s') as any) as any).crossJoin(table) as SelectQueryBuilder<DB, any, {}>)
          .where(sql<boolean>`${sql.ref(`${table}.id`)} = s.rowid`)
          .where(matchCondition('sqlite', ftsTable, '', q))
          .orderBy(sql`s.rowid`, 'desc')
      : (db.selectFrom(table) as SelectQueryBuilder<DB, any, {}>)
          .where(matchCondition('postgres', '', pgExpression, q))
          .orderBy(`${table}.id` as any, 'desc');
  return liveRecords(qb, table, caller, columns).limit(CANDIDATES).execute() as Promise<R[]>;
}

/** Records found by an exact-value lookup on one of their own indexes. */
export function exactCandidates<T extends RecordTable, R>(
  db: Executor,
  caller: SearchCaller,
  table: T,
  columns: readonly (keyof DB[T] & string)[],
  where: (qb: SelectQueryBuilder<DB, any, {}>) => SelectQueryBuilder<DB, any, {}>,
): Promise<R[]> {
  const qb = where(db.selectFrom(table) as SelectQueryBuilder<DB, any, {}>);
  return liveRecords(qb, table, caller, columns)
    .orderBy(`${table}.id` as any, 'desc')
    .limit(CANDIDATES)
    .execute() as Promise<R[]>;
}

/** Non-empty parts joined for a subtitle; null when there are none. */
export function joinParts(parts: readonly (string | null | undefined)[]): string | null {
  const kept = parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return kept.length ? kept.join(' · ') : null;
}
