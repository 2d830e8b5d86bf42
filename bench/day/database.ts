// Where one engine's busy day keeps its data: a temporary directory with the server's data
// directory and, on SQLite, the database file (bench/database.ts makes and migrates it); on
// PostgreSQL a fresh database of its own. Not a schema, as the other benches use: the server runs
// as `npm start` runs it, from DATABASE_URL alone, and a URL cannot choose a schema (the server
// sets its connections' options itself). drop() removes all of it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';
import { adminQuery, withDatabase } from '#test/helpers/postgres-admin.ts';
import { openBenchDatabase } from '../database.ts';

export interface DayDatabase {
  engine: 'sqlite' | 'postgres';
  /** The DATABASE_URL the server is started with. */
  url: string;
  /** The server's GROUNDWORK_DATA_DIR (photos, the mail outbox, export files) and its log. */
  dir: string;
  describe: string;
  /** A connection for this process: provisioning before the server starts, counting after it stops. */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function dayDatabase(engine: 'sqlite' | 'postgres', pgUrl: string | null): Promise<DayDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `groundwork-bench-day-${engine}-`));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  if (engine === 'sqlite') {
    // Made and migrated here, opened again by the server.
    const made = await openBenchDatabase({ label: 'day', dir });
    await made.database.close();
    const file = path.join(dir, 'bench.sqlite');
    return {
      engine,
      url: file,
      dir,
      describe: `SQLite file (WAL, synchronous=NORMAL) in ${dir}`,
      open: async () => openDatabase(file),
      drop: async () => removeDir(),
    };
  }
  if (!pgUrl) throw new Error('PostgreSQL needs DATABASE_URL');
  const name = `bench_day_${randomBytes(5).toString('hex')}`;
  await adminQuery(pgUrl, `create database ${name}`);
  const url = withDatabase(pgUrl, name);
  const migrated = openDatabase(url);
  await migrateToLatest(migrated);
  await migrated.close();
  return {
    engine,
    url,
    dir,
    describe: `PostgreSQL at ${new URL(url).host}, database ${name} (made for the run), the server's pool of 10`,
    open: async () => openDatabase(url),
    drop: async () => {
      removeDir();
      await adminQuery(pgUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
