// The kept statements of a SQLite connection (src/db/sqlite-statements.ts): rows come back as
// better-sqlite3 would give them, and a read run outside Kysely (readNow, db/direct-read.ts) runs
// only while the connection is free for it: never inside an open transaction, never while a stream
// iterates, never for a statement that writes. A transaction run outside Kysely (transactNow,
// db/direct-transaction.ts) likewise runs only while the connection is free, commits all it wrote
// or, if its work throws, nothing; Database.transact waits for Kysely to hand the connection over
// when a transaction holds it.
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptStatements } from '#db/sqlite-statements.ts';
import { openDatabase } from '#db/database.ts';

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

  it('transact now only while the connection is free; all of the work or none of it', () => {
    const add = (id: number) =>
      statements.transactNow((s) => s.run('insert into t (id, name) values (?, ?)', [id, `n${id}`]));
    sqlite.exec('begin');
    expect(add(6)).toBeNull();
    sqlite.exec('rollback');
    const stream = statements.prepare('select id from t order by id').iterate([]);
    stream.next();
    expect(add(6)).toBeNull();
    stream.return?.(undefined);
    expect(count()).toBe(3);

    const done = statements.transactNow((s) => {
      s.run('insert into t (id, name) values (?, ?)', [7, 'seven']);
      // Inside its own transaction the work reads what it wrote, also through a stream.
      return [...s.iterate('select id from t where id > ? order by id', [2])].map((r) => r.id);
    });
    expect(done).toEqual({ value: [3, 7] });
    expect(sqlite.inTransaction).toBe(false);
    expect(() =>
      statements.transactNow((s) => {
        s.run('insert into t (id, name) values (?, ?)', [8, 'eight']);
        throw new Error('the work failed');
      }),
    ).toThrow('the work failed');
    expect(sqlite.inTransaction).toBe(false);
    expect(statements.readNow('select id from t where id >= ? order by id', [7])).toEqual([{ id: 7 }]);
  });

  it('Database.transact waits for a Kysely transaction holding the connection, then sees what it committed', async () => {
    const database = openDatabase(':memory:');
    try {
      await database.db.schema
        .createTable('u')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const order: string[] = [];
      const open = database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('u' as never)
          .values({ id: 1 } as never)
          .execute();
        await held;
        order.push('committed');
      });
      // Let the transaction begin and write before the direct one is asked for.
      await new Promise((resolve) => setTimeout(resolve, 10));
      const direct = database.transact!((s) => {
        order.push('direct');
        return s.all('select id from u', []);
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(order).toEqual([]);
      release();
      await open;
      expect(await direct).toEqual([{ id: 1 }]);
      expect(order).toEqual(['committed', 'direct']);
    } finally {
      await database.close();
    }
  });
});
