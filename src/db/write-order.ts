// Which transactions already commit one after another with every other writer, so the event
// feed's order bump (events/record.ts, holdFeedOrder) has nothing to add: every SQLite transaction
// (one writer at a time). Marked on the transaction object itself: a query builder derived from it
// (withPlugin) is another object, unmarked, and simply bumps.
//
// A PostgreSQL transaction that holds the workspace lock (platform/context.ts, inFirmTransaction)
// would not need the bump for ordering either, and skipping it there was tried: POST /v1/jobs
// gained 15% in requests per second, but its p99 rose from 60–80 ms to 150–320 ms while p50 fell
// to 8 ms. Concurrent writers of one workspace no longer took fair turns on its row lock
// (docs/performance.md, "A durable write against the bare inserts"). So PostgreSQL keeps the bump.
const inTurn = new WeakSet<object>();

export function markCommitsInTurn(trx: object): void {
  inTurn.add(trx);
}

export function commitsInTurn(trx: object): boolean {
  return inTurn.has(trx);
}
