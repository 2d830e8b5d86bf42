// The kept statements of a SQLite connection (src/db/sqlite-statements.ts): rows come back as
// better-sqlite3 would give them, and a read run outside Kysely (readNow, db/direct-read.ts) runs
// only while the connection is free for it: never inside an open transaction, never while a stream
// iterates, never for a statement that writes.
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptStatements } from '#db/sqlite-statements.ts';

let sqlite: SQLite.Database;
let statements: ReturnType<typeof keptStatements>;

beforeEach(() => {
  sqlite = new SQLite(':memory:');
  sqlite.exec(`create table t (id integer primary key, name text, "__proto__" text);
    insert into t (id, name) values (1, 'one'), (2, 'two'), (3, 'three');`);
  statements = keptStatements(sqlite);
});
afterEach(() => statements.close());

const count = () => (sqlite.prepare('select count(*) as n from t').get() as { n: number }).n;

describe('kept SQLite statements', () => {
  it('read rows as better-sqlite3 objects, and a column named __proto__ as a column', () => {
    const text = 'select id, name from t where id <= ? order by id';
    expect(statements.readNow(text, [2])).toEqual(sqlite.prepare(text).all(2));
    const [row] = statements.readNow('select id, "__proto__" from t where id = ?', [1])!;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row!)).toEqual(['id', '__proto__']);
  });

  it('keep one statement per text and prepare another while the first is iterated', () => {
    const text = 'select id from t order by id';
    expect(statements.prepare(text)).toBe(statements.prepare(text));
    const first = statements.prepare(text);
    const outer = first.iterate([]);
    expect(outer.next().value).toEqual({ id: 1 });
    const second = statements.prepare(text);
    expect(second).not.toBe(first);
    expect(second.all([])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    outer.return?.(undefined);
  });

  it('read now only outside a transaction', () => {
    sqlite.exec('begin');
    sqlite.exec(`insert into t (id, name) values (4, 'uncommitted')`);
    expect(statements.readNow('select name from t where id = ?', [4])).toBeNull();
    sqlite.exec('rollback');
    expect(statements.readNow('select name from t where id = ?', [4])).toEqual([]);
    expect(statements.readNow('select name from t where id = ?', [3])).toEqual([{ name: 'three' }]);
  });

  it('read now only while no stream iterates', () => {
    const stream = statements.prepare('select id from t order by id').iterate([]);
    expect(stream.next().value).toEqual({ id: 1 });
    expect(statements.readNow('select name from t where id = ?', [1])).toBeNull();
    // Ended early (a consumer that breaks out of its loop) as well as run to its end.
    stream.return?.(undefined);
    expect(statements.readNow('select name from t where id = ?', [1])).toEqual([{ name: 'one' }]);
    expect([...statements.prepare('select id from t order by id').iterate([])]).toHaveLength(3);
    expect(statements.readNow('select name from t where id = ?', [2])).toEqual([{ name: 'two' }]);
  });

  it('never run a write as a read, not even one that returns rows', () => {
    expect(statements.readNow(`insert into t (id, name) values (5, 'five') returning id`, [])).toBeNull();
    expect(statements.readNow('delete from t where id = ?', [1])).toBeNull();
    expect(count()).toBe(3);
  });
});
