// Everything that differs between SQLite and PostgreSQL lives here, so the query code is one.
import { sql, type ColumnDefinitionBuilder, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from './tables.ts';

export type Engine = 'sqlite' | 'postgres';
export type Executor = Kysely<DB> | Transaction<DB>;

export interface Dialect {
  engine: Engine;
  /** Integer primary key that the database numbers. */
  idColumn(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /**
   * Serialises writers of one workspace inside a transaction (PostgreSQL row lock on the firm).
   * SQLite needs nothing: it admits one writer at a time and Kysely holds its one connection
   * for the whole transaction.
   */
  lockFirm(trx: Executor, firmId: number): Promise<void>;
  /** True when `err` is a unique-constraint violation. */
  isUniqueViolation(err: unknown): boolean;
  /**
   * True when the transaction failed only for how it interleaved with others and can simply run
   * again: PostgreSQL's deadlock victim (40P01) or serialization failure (40001).
   */
  isTransient(err: unknown): boolean;
  /**
   * For the rest of the transaction, makes the planner cost filters (an ILIKE over a long search
   * expression) at what they really cost, so it uses a trigram index instead of scanning a table
   * and filtering every row. Used by search. SQLite needs nothing: its search queries are driven
   * by FTS5 tables.
   */
  avoidTableScans(trx: Executor): Promise<void>;
  /** The text before the first comma of a comma list (a job's first job type), or null. */
  firstListItem(list: RawBuilder<string | null>): RawBuilder<string | null>;
}

const sqlite: Dialect = {
  engine: 'sqlite',
  idColumn: (col) => col.primaryKey().autoIncrement(),
  lockFirm: async () => {},
  // A primary key is a unique key too (PostgreSQL reports both as 23505).
  isUniqueViolation: (err) =>
    typeof err === 'object' &&
    err !== null &&
    /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)/.test(String((err as { code?: unknown }).code)),
  // One writer at a time: SQLite has no deadlocks (busy_timeout waits instead).
  isTransient: () => false,
  avoidTableScans: async () => {},
  firstListItem: (list) =>
    sql`(case when instr(${list}, ',') > 0 then substr(${list}, 1, instr(${list}, ',') - 1) else ${list} end)`,
};

const postgres: Dialect = {
  engine: 'postgres',
  idColumn: (col) => col.primaryKey().generatedByDefaultAsIdentity(),
  lockFirm: async (trx, firmId) => {
    await sql`select id from firms where id = ${firmId} for update`.execute(trx);
  },
  isUniqueViolation: (err) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505',
  isTransient: (err) =>
    typeof err === 'object' && err !== null && ['40P01', '40001'].includes(String((err as { code?: unknown }).code)),
  avoidTableScans: async (trx) => {
    // 100 × the default 0.0025: an ILIKE over a ~100-character text costs about a microsecond.
    await sql`set local cpu_operator_cost = 0.25`.execute(trx);
  },
  firstListItem: (list) => sql`split_part(${list}, ',', 1)`,
};

export function dialectFor(engine: Engine): Dialect {
  return engine === 'postgres' ? postgres : sqlite;
}
