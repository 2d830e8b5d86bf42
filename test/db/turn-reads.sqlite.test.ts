// The direct reads of one event-loop turn share one read transaction (src/db/turn-reads.ts): it is
// ended with the turn and before anything else runs on the connection, so no write waits for it or
// lands inside it, and a read sees every commit made through this process before it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptStatements } from '#db/sqlite-statements.ts';

let dir: string;
let file: string;
const open: { close(): void }[] = [];

function connect() {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  const statements = keptStatements(sqlite);
  open.push(statements);
  return { sqlite, statements };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-turn-reads-'));
  file = path.join(dir, 'db.sqlite');
  const setup = new SQLite(file);
  setup.pragma('journal_mode = WAL');
  setup.exec(`create table t (id integer primary key, name text);
    insert into t (id, name) values (1, 'one'), (2, 'two');`);
  setup.close();
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const NAME = 'select name from t where id = ?';

/** Another process's view: a plain connection, outside the kept statements. */
function outside() {
  const sqlite = new SQLite(file);
  open.push(sqlite);
  return sqlite;
}

describe("a turn's direct reads", () => {
  it('share one read transaction from the second read on, ended with the turn', async () => {
    const { sqlite, statements } = connect();
    expect(statements.readNow(NAME, [1])).toEqual([{ name: 'one' }]);
    expect(sqlite.inTransaction).toBe(false);
    expect(statements.readNow(NAME, [2])).toEqual([{ name: 'two' }]);
    expect(sqlite.inTransaction).toBe(true);
    expect(statements.readNow(NAME, [1])).toEqual([{ name: 'one' }]);
    await nextTurn();
    expect(sqlite.inTransaction).toBe(false);
  });

  it('end before a write on the connection, which commits at once and is read back', () => {
    const { sqlite, statements } = connect();
    statements.readNow(NAME, [1]);
    statements.readNow(NAME, [2]);
    statements.prepare('insert into t (id, name) values (?, ?)').run([3, 'three']);
    expect(sqlite.inTransaction).toBe(false);
    expect(outside().prepare(NAME).get(3)).toEqual({ name: 'three' });
    expect(statements.readNow(NAME, [3])).toEqual([{ name: 'three' }]);
    // A write that returns rows (Kysely runs it with all()) too.
    statements.readNow(NAME, [1]);
    expect(statements.prepare('insert into t (id, name) values (?, ?) returning id').all([9, 'nine'])).toEqual([
      { id: 9 },
    ]);
    expect(sqlite.inTransaction).toBe(false);
    expect(outside().prepare(NAME).get(9)).toEqual({ name: 'nine' });
  });

  it('end before a transaction begins, a direct one or one of Kysely’s', () => {
    const { sqlite, statements } = connect();
    statements.readNow(NAME, [1]);
    statements.readNow(NAME, [2]);
    const done = statements.transactNow((s) => s.run('insert into t (id, name) values (?, ?)', [4, 'four']));
    expect(done).not.toBeNull();
    expect(sqlite.inTransaction).toBe(false);
    expect(outside().prepare(NAME).get(4)).toEqual({ name: 'four' });
    statements.readNow(NAME, [1]);
    statements.readNow(NAME, [2]);
    // What Kysely's SQLite driver runs for a transaction.
    statements.prepare('begin').run([]);
    statements.prepare('insert into t (id, name) values (?, ?)').run([5, 'five']);
    expect(statements.readNow(NAME, [5])).toBeNull();
    statements.prepare('commit').run([]);
    expect(statements.readNow(NAME, [5])).toEqual([{ name: 'five' }]);
  });

  it('end before a stream opens, which may run past the turn', async () => {
    const { statements } = connect();
    statements.readNow(NAME, [1]);
    statements.readNow(NAME, [2]);
    const stream = statements.prepare('select id from t order by id').iterate([]);
    expect(stream.next().value).toEqual({ id: 1 });
    // Kysely's streams are read a row per await: the turn ends while this one is open.
    await nextTurn();
    expect(stream.next().value).toEqual({ id: 2 });
    expect(stream.next().done).toBe(true);
    expect(statements.readNow(NAME, [2])).toEqual([{ name: 'two' }]);
  });

  it('see a commit made through another connection of this process within the same turn', () => {
    const a = connect();
    const b = connect();
    a.statements.readNow(NAME, [1]);
    expect(a.statements.readNow(NAME, [6])).toEqual([]);
    expect(a.sqlite.inTransaction).toBe(true);
    b.statements.prepare('insert into t (id, name) values (?, ?)').run([6, 'six']);
    expect(a.statements.readNow(NAME, [6])).toEqual([{ name: 'six' }]);
  });

  it('see a commit made outside the process from the next turn on', async () => {
    const { statements } = connect();
    statements.readNow(NAME, [1]);
    statements.readNow(NAME, [2]);
    outside().prepare('insert into t (id, name) values (?, ?)').run(7, 'seven');
    await nextTurn();
    expect(statements.readNow(NAME, [7])).toEqual([{ name: 'seven' }]);
  });

  it('leave the connection usable after a read that throws', async () => {
    const { sqlite, statements } = connect();
    sqlite.function('fails', () => {
      throw new Error('read failed');
    });
    statements.readNow(NAME, [1]);
    expect(() => statements.readNow('select fails() as x from t where id = ?', [1])).toThrow('read failed');
    statements.prepare('insert into t (id, name) values (?, ?)').run([8, 'eight']);
    expect(sqlite.inTransaction).toBe(false);
    expect(statements.readNow(NAME, [8])).toEqual([{ name: 'eight' }]);
    await nextTurn();
    expect(sqlite.inTransaction).toBe(false);
  });
});
