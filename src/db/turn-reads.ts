// The direct reads of one event-loop turn share one SQLite read transaction. Every statement run
// outside a transaction is a read transaction of its own, and beginning and ending one (a lock and
// an unlock on the log's shared memory, both system calls, and the checks that the page cache is
// still current) cost about 5 µs: half of a cached job read. Under load a turn answers several
// requests (about nine in bench/job-read.ts), so from a turn's second direct read on, the reads
// run inside one BEGIN … COMMIT, ended when the turn is (setImmediate) or before anything else
// runs on the connection (docs/performance.md, "The reads of a turn in one read transaction").
//
// What a read can see is unchanged for this process: the snapshot, taken by the first read inside
// the transaction, is let go before this connection writes, begins a transaction or opens a
// stream, and before a read that follows a write made through another connection of this process.
// A commit by another process is seen from the next turn on, as if the read had come when the
// turn's shared read began.
import type SQLite from 'better-sqlite3';

/** Statements that may have written, through any connection of this process. */
let writesInProcess = 0;

/**
 * Counts a statement that may write (db/sqlite-statements.ts): another connection's shared read
 * begun before it ends at that connection's next read, which then sees what it wrote.
 */
export function noteWrite(): void {
  writesInProcess++;
}

export class TurnReads {
  readonly #sqlite: SQLite.Database;
  readonly #begin: SQLite.Statement;
  readonly #commit: SQLite.Statement;
  #open = false;
  #readsThisTurn = 0;
  #writesSeen = 0;

  constructor(sqlite: SQLite.Database) {
    this.#sqlite = sqlite;
    this.#begin = sqlite.prepare('begin');
    this.#commit = sqlite.prepare('commit');
  }

  /** Whether the connection's open transaction, if any, is this shared read. */
  get open(): boolean {
    return this.#open;
  }

  /**
   * Called before a read run directly, on a connection that is free for it: the turn's first read
   * runs on its own (one read alone gains nothing from BEGIN and COMMIT); the second begins the
   * shared transaction, which the rest of the turn's reads join.
   */
  beforeRead(): void {
    if (this.#open && (this.#writesSeen !== writesInProcess || !this.#sqlite.inTransaction)) this.end();
    if (this.#readsThisTurn++ === 0) setImmediate(this.#turnEnded);
    if (this.#open || this.#readsThisTurn < 2) return;
    this.#begin.run();
    this.#open = true;
    this.#writesSeen = writesInProcess;
  }

  /** Ends the shared read, if one is open: before anything else runs on the connection. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    // Nothing was written in it, so the COMMIT only lets go of the snapshot.
    if (this.#sqlite.inTransaction) this.#commit.run();
  }

  readonly #turnEnded = () => {
    this.#readsThisTurn = 0;
    this.end();
  };
}
