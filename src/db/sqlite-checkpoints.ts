// SQLite in WAL mode appends every commit to the log, and by default the commit that takes the log
// past 1,000 pages copies it back into the database file (a checkpoint): that commit syncs the log,
// copies the pages and syncs the file, 5–15 ms on the event loop for one API call or one webhook
// batch in every few dozen writes (docs/performance.md, "Statement texts made once, and
// checkpoints on a thread of their own").
// Here a thread does the copying: with a connection of its own to the same file it runs a passive
// checkpoint (one that neither waits for nor holds up a reader or a writer) about every 1,000
// pages written.
//
// The log starts again from its beginning only when a write begins with every page already copied
// back. Under writes that never pause, a copy made beside them ends a little behind, so the log
// would only grow; the connection therefore keeps an automatic checkpoint of its own, at
// BACKSTOP_PAGES: by then the thread has copied nearly all of it, and the commit copies the rest
// (no sync at all when nothing is left) and the log restarts. If the thread dies, the connection
// goes back to SQLite's default.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** The thread checkpoints about this many pages at a time, as SQLite's own automatic checkpoint does. */
const PAGES_PER_CHECKPOINT = 1000;
/** How often it looks, at the busiest and at the quietest. */
const MIN_WAIT_MS = 100;
const MAX_WAIT_MS = 10_000;
const DEFAULT_PAGES = 1000;
const BACKSTOP_PAGES = 10_000;

/**
 * The thread's script: CommonJS, given the driver's path (resolved here, not from the working
 * directory). A passive checkpoint says how long the log is (`log`, in pages since it last
 * started again); from what was added since the last one the thread sets its next wait, so that a
 * checkpoint copies about PAGES_PER_CHECKPOINT pages: every 100 ms under a stream of writes, twice
 * as long after each look that found nothing new, up to 10 s (a checkpoint every 100 ms under a
 * trickle of writes would sync the files ten times a second for a page or two, and slowed the
 * commits beside it; docs/performance.md has the measurements).
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const { pages, minWait, maxWait } = workerData;
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
let lastLog = 0;
let wait = minWait;
let timer = setTimeout(function checkpoint() {
  const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)');
  const added = log >= lastLog ? log - lastLog : log;
  lastLog = log;
  wait = Math.min(maxWait, Math.max(minWait, added > 0 ? (wait * pages) / added : wait * 2));
  timer = setTimeout(checkpoint, wait);
}, minWait);
parentPort.on('message', () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

export interface CheckpointThread {
  /** Ends the thread and closes its connection (before the main connection closes, so that one, the last, removes the log). */
  stop(): Promise<void>;
}

/** Starts checkpointing `sqlite` (a file database in WAL mode, open at `file`) on a thread of its own. */
export function checkpointOnThread(sqlite: SQLite.Database, file: string): CheckpointThread {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { driver, file, pages: PAGES_PER_CHECKPOINT, minWait: MIN_WAIT_MS, maxWait: MAX_WAIT_MS },
  });
  // A thread never keeps the process alive: a process that exits without closing the database
  // leaves the log for the next open to recover, as it always could.
  thread.unref();
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    thread.once('exit', () => {
      // Died (its connection failed, or the file went away): the connection checkpoints for itself again.
      if (!stopping && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
      resolve();
    });
  });
  // An error also ends the thread; 'exit' follows and restores the default.
  thread.on('error', () => {});
  return {
    async stop() {
      stopping = true;
      // Waited for, it must keep the process alive until it has gone (an unref'd thread's exit
      // is not waited for: a script awaiting it would end with its await unsettled).
      thread.ref();
      thread.postMessage('stop');
      await exited;
    },
  };
}
