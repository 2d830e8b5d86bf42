// The SQLite connection Kysely talks to, with two savings on every query:
// - statements are prepared once and kept (Kysely prepares anew on every call, which costs as
//   much as running a small query);
// - rows are read as arrays and turned into objects by a function built once per statement,
//   which V8 runs several times faster than better-sqlite3's property-by-property objects.
// A statement still being iterated (a stream) is never handed out twice.
//
// `readNow` runs a read outside Kysely, whose mutex and chain of promises cost a cached job read a
// third as much again as SQLite's own work (db/direct-read.ts), and shares one read transaction
// with the turn's other direct reads (db/turn-reads.ts); `transactNow` a whole transaction
// (db/direct-transaction.ts).
import type SQLite from 'better-sqlite3';
import type { DirectStatements, TransactNow } from './direct-transaction.ts';
import { noteWrite, TurnReads } from './turn-reads.ts';

type Row = Record<string, unknown>;

function rowMaker(names: string[]): (values: unknown[]) => Row {
  if (names.includes('__proto__')) {
    return (values) => {
      const row: Row = {};
      names.forEach((n, i) => {
        Object.defineProperty(row, n, { value: values[i], enumerable: true, writable: true });
      });
      return row;
    };
  }
  // Later columns of the same name win, as they do in better-sqlite3's own objects.
  return new Function('v', `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}};`) as (
    values: unknown[],
  ) => Row;
}

/** Iterations open on a connection: while one is, better-sqlite3 refuses any other statement. */
interface Streams {
  open: number;
}

class KeptStatement {
  readonly reader: boolean;
  /** Whether the statement only reads (better-sqlite3 asks SQLite): never a write with RETURNING. */
  readonly readsOnly: boolean;
  readonly #stmt: SQLite.Statement;
  readonly #toRow: ((values: unknown[]) => Row) | null;
  readonly #streams: Streams;
  readonly #turn: TurnReads;

  constructor(stmt: SQLite.Statement, streams: Streams, turn: TurnReads) {
    this.#stmt = stmt;
    this.#streams = streams;
    this.#turn = turn;
    this.reader = stmt.reader;
    this.readsOnly = stmt.readonly;
    this.#toRow = stmt.reader ? rowMaker(stmt.columns().map((c) => c.name)) : null;
    if (stmt.reader) stmt.raw(true);
  }

  get busy(): boolean {
    return this.#stmt.busy;
  }

  // Kysely's statements and a direct transaction's: the turn's shared read, if open, ends first.
  all(parameters: unknown[]): Row[] {
    this.#turn.end();
    if (!this.readsOnly) noteWrite();
    return this.read(parameters);
  }

  /** The rows, on the connection as it is: readNow's reads, inside the turn's shared read. */
  read(parameters: unknown[]): Row[] {
    const rows = this.#stmt.all(parameters) as unknown[][];
    const out = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = this.#toRow!(rows[i]);
    return out;
  }

  run(parameters: unknown[]) {
    this.#turn.end();
    noteWrite();
    return this.#stmt.run(parameters);
  }

  *iterate(parameters: unknown[]): IterableIterator<Row> {
    this.#turn.end();
    this.#streams.open++;
    try {
      for (const values of this.#stmt.iterate(parameters) as IterableIterator<unknown[]>) yield this.#toRow!(values);
    } finally {
      this.#streams.open--;
    }
  }
}

export function keptStatements(sqlite: SQLite.Database, max = 1000) {
  const cache = new Map<string, KeptStatement>();
  const streams: Streams = { open: 0 };
  const turn = new TurnReads(sqlite);
  const prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (stmt && !stmt.busy) return stmt;
    stmt = new KeptStatement(sqlite.prepare(sql), streams, turn);
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(sql, stmt);
    return stmt;
  };
  const direct: DirectStatements = {
    all: (sql, parameters) => {
      const stmt = prepare(sql);
      if (stmt.reader) return stmt.all(parameters);
      stmt.run(parameters);
      return [];
    },
    run: (sql, parameters) => void prepare(sql).run(parameters),
    iterate: (sql, parameters) => prepare(sql).iterate(parameters),
  };
  // Made once: better-sqlite3 wraps the function in BEGIN and COMMIT, or ROLLBACK when it throws.
  const transaction = sqlite.transaction((work: (statements: DirectStatements) => unknown) => work(direct));
  /**
   * Free: no transaction open but the turn's shared read (Kysely's mutex holds one across awaits)
   * and no stream iterating.
   */
  const free = () => (turn.open || !sqlite.inTransaction) && streams.open === 0;
  const transactNow: TransactNow = (work) => {
    if (!free()) return null;
    turn.end();
    noteWrite();
    return { value: transaction(work) as ReturnType<typeof work> };
  };
  return {
    prepare,
    /**
     * Runs `work` as one transaction now, or returns null when the connection is not free for it,
     * as for readNow.
     */
    transactNow,
    /**
     * The rows of a read, run now, or null when the connection is not free for it: inside an open
     * transaction (which Kysely's mutex holds across awaits: a read must not see its uncommitted
     * writes, nor be rolled back with it) or while a stream iterates. Null too for a statement that
     * writes: that runs only through Kysely.
     */
    readNow(sql: string, parameters: readonly unknown[]): Row[] | null {
      if (!free()) return null;
      const stmt = prepare(sql);
      if (!stmt.reader || !stmt.readsOnly) return null;
      turn.beforeRead();
      return stmt.read(parameters as unknown[]);
    },
    close() {
      turn.end();
      cache.clear();
      sqlite.close();
    },
  };
}
