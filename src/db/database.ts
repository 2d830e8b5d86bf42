// Opens the database named by DATABASE_URL: a SQLite file (WAL) by default, PostgreSQL for production.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { isPostgresUrl } from '#src/config.ts';
import { batchReadsOn } from './batched-read.ts';
import { readDirectlyOn } from './direct-read.ts';
import { transactDirectly, type DirectStatements } from './direct-transaction.ts';
import { dialectFor, type Dialect } from './dialect.ts';
import type { DB } from './tables.ts';
import { checkpointOnThread } from './sqlite-checkpoints.ts';
import { poolWithNamedStatements, poolWithUnnamedStatements } from './pg-prepared.ts';
import { keptStatements } from './sqlite-statements.ts';
import { CASEFOLD_FUNCTION } from './text-search.ts';

// COUNT(*) and other int8 results arrive as strings by default; our counts fit in a double.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface Database {
  db: Kysely<DB>;
  /**
   * The same database, for reads whose best plan depends on their values (a report over a range of
   * dates): on PostgreSQL each statement is planned with its values, unnamed, where `db`'s named
   * statements settle on one generic plan after five runs (pg-prepared.ts), and a generic plan of
   * an aggregate guesses its rows from no range at all. On SQLite it is `db`.
   */
  unprepared: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL schema the connections use, when not the default. */
  schema?: string;
  /**
   * PostgreSQL only: the webhook queue's statements (events/deliveries.ts), on connections of their
   * own whose plans never scan a table (QUEUE_PLANS below). On SQLite the queue uses `transact`.
   */
  queue?: Kysely<DB>;
  /**
   * SQLite only: runs `work` as one transaction on the connection directly, in one call rather than
   * a chain of promises per statement (db/direct-transaction.ts). The webhook worker's writes.
   */
  transact?: <T>(work: (statements: DirectStatements) => T) => Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL only: run every connection in this schema (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
  /** PostgreSQL only: named statements kept per connection (pg-prepared.ts). */
  maxNamedStatements?: number;
}

/**
 * The webhook queue's connections (Database.queue) plan with table scans and bitmap scans priced out.
 * Its statements are named, so each connection plans them once and keeps the plan; a plan made while
 * the queue was small scanned the whole table (a few dozen pages) or read every due delivery and
 * sorted them, and kept doing so after a burst had queued thousands more, until autovacuum's analyze
 * came round: the worker fell from about 4,000 deliveries a second to 1,300 (docs/performance.md, "The
 * delivery's body out of its row"). With these off every plan walks the indexes, which is the right
 * plan for the queue at any size. Planned with their values every time instead (unnamed), the
 * writes cost a third of the throughput.
 */
const QUEUE_PLANS = ['-c enable_seqscan=off', '-c enable_bitmapscan=off'];

/**
 * The settings each PostgreSQL connection starts with, as `-c` options. The operator's PGOPTIONS
 * (libpq's variable) come after ours, so any of them can be set back: a later `-c` wins.
 *
 * - jit=off: JIT compiles only queries the planner costs high, which here are the owner reports,
 *   and there compiling took about 200 ms of a 1-second report and never paid back: reports ran
 *   15–25% faster without it (docs/performance.md, "Owner reports"). The API's reads never reach it.
 * - max_parallel_workers_per_gather=0: this server's requests are its concurrency, so a query's
 *   parallel workers take cores from the requests beside it; and measured alone on a 2-core server
 *   the parallel plans of the reports and their baselines were 1.5–3.5× slower than serial ones, and
 *   a count of 333,000 index entries (a long list's pagination.total) took twice as long
 *   (docs/performance.md, "Owner reports").
 */
function connectionOptions(schema: string | undefined, extra: string[] = []): string {
  return [
    '-c jit=off',
    '-c max_parallel_workers_per_gather=0',
    ...extra,
    ...(schema ? [`-c search_path=${schema}`] : []),
    ...(process.env.PGOPTIONS ? [process.env.PGOPTIONS] : []),
  ].join(' ');
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      options: connectionOptions(options.schema),
    });
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({
        pool: poolWithNamedStatements(pool, options.maxNamedStatements) as unknown as pg.Pool,
      }),
    });
    batchReadsOn(db);
    // Same pool: its connections serve both; destroying `db` ends it.
    const unprepared = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: poolWithUnnamedStatements(pool) as unknown as pg.Pool }),
    });
    const queuePool = new pg.Pool({
      connectionString: url,
      max: 2,
      options: connectionOptions(options.schema, QUEUE_PLANS),
    });
    const queue = new Kysely<DB>({
      dialect: new PostgresDialect({
        pool: poolWithNamedStatements(queuePool, options.maxNamedStatements) as unknown as pg.Pool,
      }),
    });
    const close = async () => {
      await queue.destroy();
      await db.destroy();
    };
    return { db, unprepared, queue, dialect: dialectFor('postgres'), schema: options.schema, close };
  }
  if (url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(url)), { recursive: true });
  const sqlite = new SQLite(url);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Savepoints (lead intake opens its job in one) journal every page they change; past 64 KiB that
  // journal spills to a temporary file, which made each write inside a savepoint cost twice as
  // much. In memory it never touches the disk; sorts and temporary indexes stay in memory too.
  sqlite.pragma('temp_store = MEMORY');
  sqlite.function(CASEFOLD_FUNCTION, { deterministic: true }, (v: unknown) =>
    typeof v === 'string' ? v.toLowerCase() : v,
  );
  // A file's checkpoints run on a thread of their own (sqlite-checkpoints.ts); memory has no log.
  const checkpoints = url === ':memory:' ? null : checkpointOnThread(sqlite, path.resolve(url));
  const statements = keptStatements(sqlite);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: statements }) });
  readDirectlyOn(db, statements.readNow);
  const close = async () => {
    await checkpoints?.stop();
    await db.destroy();
  };
  const transact = <T>(work: (statements: DirectStatements) => T) => transactDirectly(db, statements.transactNow, work);
  return { db, unprepared: db, dialect: dialectFor('sqlite'), transact, close };
}
