// The database a benchmark runs on: a fresh PostgreSQL schema when given a URL, otherwise a
// SQLite file (WAL) in a temporary directory; migrated, and removed again by drop().
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';

export interface BenchDatabase {
  engine: 'sqlite' | 'postgres';
  database: Database;
  /** One line for the report: where the data lives. */
  describe: string;
  drop(): Promise<void>;
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Where a PostgreSQL URL points, for the report. libpq's forms include some the WHATWG parser
 * refuses (`postgres://user@/db?host=/run/postgresql`, a socket and no host), which must not stop a run.
 */
function whereOf(url: string): string {
  try {
    return new URL(url).host || 'localhost';
  } catch {
    const socket = /[?&]host=([^&]+)/.exec(url)?.[1];
    return socket ? decodeURIComponent(socket) : 'localhost';
  }
}

/**
 * `url` selects PostgreSQL; without it the SQLite file goes in `dir` (kept by drop(): the caller
 * owns it) or in a new temporary directory named after `label` (removed by drop()).
 */
export async function openBenchDatabase(o: {
  url?: string | null;
  label: string;
  dir?: string;
}): Promise<BenchDatabase> {
  if (o.url) {
    const url = o.url;
    const schema = `bench_${randomBytes(5).toString('hex')}`;
    await adminQuery(url, `create schema ${schema}`);
    const database = openDatabase(url, { schema });
    await migrateToLatest(database);
    return {
      engine: 'postgres',
      database,
      describe: `PostgreSQL at ${whereOf(url)}, schema ${schema}, pool 10`,
      drop: async () => {
        await database.close();
        await adminQuery(url, `drop schema ${schema} cascade`);
      },
    };
  }
  const dir = o.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), `groundwork-bench-${o.label}-`));
  const database = openDatabase(path.join(dir, 'bench.sqlite'));
  await migrateToLatest(database);
  return {
    engine: 'sqlite',
    database,
    describe: `SQLite file (WAL, synchronous=NORMAL) in ${dir}`,
    drop: async () => {
      await database.close();
      if (o.dir === undefined) fs.rmSync(dir, { recursive: true, force: true });
      else fs.rmSync(path.join(dir, 'bench.sqlite'), { force: true });
    },
  };
}

/** An interrupted run (Ctrl-C, SIGTERM) still drops its PostgreSQL schema or SQLite directory. */
export function dropOnInterrupt(drop: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void drop().finally(() => process.exit(130));
    });
  }
}
