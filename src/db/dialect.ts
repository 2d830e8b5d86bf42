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
  /**
   * The value at `path` of the JSON held in the text `column`, as text (null when absent): a step is
   * a fixed key or an SQL expression giving one (a row's id). Both engines answer a number as its
   * text, so comparisons agree.
   */
  jsonText(column: RawBuilder<unknown>, path: readonly JsonStep[]): RawBuilder<string>;
  /** The number at `path` (a JSON number), null when absent. */
  jsonNumber(column: RawBuilder<unknown>, path: readonly JsonStep[]): RawBuilder<number>;
  /** Whether the JSON boolean at `path` is true. */
  jsonTrue(column: RawBuilder<unknown>, path: readonly JsonStep[]): RawBuilder<boolean>;
  /**
   * Whether reading many values out of one stored JSON text costs one parse: SQLite keeps recently
   * parsed JSON within a statement (500 values out of a 787-KB estimate calculation in 2.4 ms);
   * PostgreSQL parses the text on every read (1.6 s), so a query reading many values of one
   * document takes its part out once first (jsonPart, in a materialized CTE) and reads that.
   */
  keepsParsedJson: boolean;
  /** The part at `path` of the JSON in the text `column`, parsed (PostgreSQL: jsonb) for jsonNumberIn. */
  jsonPart(column: RawBuilder<unknown>, path: readonly string[]): RawBuilder<unknown>;
  /** The number at `path` in a part jsonPart gave, null when absent. */
  jsonNumberIn(part: RawBuilder<unknown>, path: readonly JsonStep[]): RawBuilder<number>;
  /** Whether the JSON boolean at `path` in a part jsonPart gave is true. */
  jsonTrueIn(part: RawBuilder<unknown>, path: readonly JsonStep[]): RawBuilder<boolean>;
  /** Whether the JSON array at `key` of the object in `column` holds the string `value`. */
  jsonArrayHas(column: RawBuilder<unknown>, key: string, value: string): RawBuilder<boolean>;
  /** Milliseconds from one stored instant (text 'YYYY-MM-DDTHH:MM:SS.ffffff', UTC) to another. */
  millisBetween(from: RawBuilder<unknown>, to: RawBuilder<unknown>): RawBuilder<number>;
}

/** One step of a JSON path: a fixed key, or an SQL expression giving the key (a row's id). */
export type JsonStep = string | RawBuilder<unknown>;

/** SQLite's JSON path text for `path`: '$."a"."b"', a key from a row joined in as text. */
const sqlitePath = (path: readonly JsonStep[]) =>
  sql`'$' || ${sql.join(
    path.map((s) => (typeof s === 'string' ? sql`${`."${s}"`}` : sql`'."' || cast(${s} as text) || '"'`)),
    sql` || `,
  )}`;
/** PostgreSQL's path array for `path`, each step as text (a row's id too). */
const pgPath = (path: readonly JsonStep[]) => sql`array[${sql.join(path.map((s) => sql`cast(${s} as text)`))}]`;
// Read as `json`, not `jsonb`: either way the stored text is parsed on every read, but json's parse
// only checks it where jsonb's builds the whole document's binary form. One value out of an
// estimate's calculation took a quarter less time (docs/performance.md, "Owner reports").
const pgText = (column: RawBuilder<unknown>, path: readonly JsonStep[]) =>
  sql<string>`(cast(${column} as json) #>> ${pgPath(path)})`;

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
  // json_extract answers a JSON string as text and a number as a number: cast so both engines agree.
  jsonText: (column, path) => sql`cast(json_extract(${column}, ${sqlitePath(path)}) as text)`,
  jsonNumber: (column, path) => sql`json_extract(${column}, ${sqlitePath(path)})`,
  // SQLite answers JSON true as 1.
  jsonTrue: (column, path) => sql`(json_extract(${column}, ${sqlitePath(path)}) = 1)`,
  keepsParsedJson: true,
  jsonPart: (column, path) => sql`json_extract(${column}, ${sqlitePath(path)})`,
  jsonNumberIn: (part, path) => sql`json_extract(${part}, ${sqlitePath(path)})`,
  jsonTrueIn: (part, path) => sql`(json_extract(${part}, ${sqlitePath(path)}) = 1)`,
  jsonArrayHas: (column, key, value) =>
    sql`(json_type(${column}, ${`$."${key}"`}) = 'array' and exists (select 1 from json_each(${column}, ${`$."${key}"`}) as je where je.value = ${value}))`,
  // julianday is a double of days: about a millisecond's precision at today's dates.
  millisBetween: (from, to) => sql`((julianday(${to}) - julianday(${from})) * 86400000.0)`,
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
  jsonText: (column, path) => pgText(column, path),
  jsonNumber: (column, path) => sql`cast(${pgText(column, path)} as numeric)`,
  jsonTrue: (column, path) => sql`(${pgText(column, path)} = 'true')`,
  keepsParsedJson: false,
  jsonPart: (column, path) => sql`(cast(${column} as jsonb) #> ${pgPath(path)})`,
  jsonNumberIn: (part, path) => sql`cast(${part} #>> ${pgPath(path)} as numeric)`,
  jsonTrueIn: (part, path) => sql`((${part} #>> ${pgPath(path)}) = 'true')`,
  jsonArrayHas: (column, key, value) =>
    sql`coalesce(jsonb_typeof(cast(${column} as jsonb) -> cast(${key} as text)) = 'array' and (cast(${column} as jsonb) -> cast(${key} as text)) @> jsonb_build_array(cast(${value} as text)), false)`,
  millisBetween: (from, to) =>
    sql`(extract(epoch from (cast(${to} as timestamp) - cast(${from} as timestamp))) * 1000)`,
};

export function dialectFor(engine: Engine): Dialect {
  return engine === 'postgres' ? postgres : sqlite;
}
