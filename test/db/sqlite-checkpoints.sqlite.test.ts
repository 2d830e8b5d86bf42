// A SQLite file's checkpoints run on a thread of their own (src/db/sqlite-checkpoints.ts): the
// pages its commits append to the log reach the database file without any commit copying them.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '#db/database.ts';
import { REPO_ROOT } from '#test/helpers/paths.ts';

const run = promisify(execFile);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function fileDatabase(): { database: Database; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-checkpoints-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  return { database: openDatabase(file), file };
}

/** `commits` commits of 100 rows of 4 KiB each (about 100 pages a commit). */
async function writePages(database: Database, commits: number): Promise<void> {
  await sql`create table if not exists scratch (b blob)`.execute(database.db);
  for (let i = 0; i < commits; i++) {
    await database.db.transaction().execute(async (trx) => {
      for (let r = 0; r < 100; r++) await sql`insert into scratch (b) values (${randomBytes(4096)})`.execute(trx);
    });
  }
}

const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

describe('SQLite checkpoints on a thread', () => {
  it('copies the log into the database file while the connection only appends', async () => {
    const { database, file } = fileDatabase();
    try {
      // The connection's own checkpoint waits for 10,000 pages; 4,000 are written.
      const [setting] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db))
        .rows;
      expect(setting?.wal_autocheckpoint).toBe(10_000);
      const before = size(file);
      await writePages(database, 40);
      // Pages reach the database file only through a checkpoint, and no commit made one.
      let copied = size(file) - before;
      for (let waited = 0; copied < 4000 * 4096 && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        copied = size(file) - before;
      }
      expect(copied).toBeGreaterThanOrEqual(4000 * 4096);
      const [count] = (await sql<{ n: number }>`select count(*) as n from scratch`.execute(database.db)).rows;
      expect(count?.n).toBe(4000);
    } finally {
      await database.close();
    }
  });

  it('stops with the database, which then removes its log', async () => {
    const { database, file } = fileDatabase();
    await writePages(database, 3);
    expect(size(`${file}-wal`)).toBeGreaterThan(0);
    await database.close();
    // The last connection to close checkpoints and deletes the log: the thread's closed first.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const reopened = openDatabase(file);
    try {
      const [count] = (await sql<{ n: number }>`select count(*) as n from scratch`.execute(reopened.db)).rows;
      expect(count?.n).toBe(300);
    } finally {
      await reopened.close();
    }
  });

  it('a script whose last step awaits close() ends once the thread has gone', async () => {
    // Nothing but the close keeps this process alive; waited for unref'd, the thread's exit never
    // came and Node ended the script with its await unsettled (exit code 13).
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/db/fixtures/close-file-database.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: '' },
    });
    expect(stdout.trim()).toBe('closed');
  });
});
