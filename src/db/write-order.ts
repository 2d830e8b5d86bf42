// Which transactions already commit in turn with every other writer of a workspace, so the event
// feed's order bump (events/record.ts, holdFeedOrder) would take a lock they hold: a PostgreSQL
// transaction that locked the workspace's row (platform/context.ts, inFirmTransaction), and every
// SQLite transaction (one writer at a time). Marked on the transaction object itself: a query
// builder derived from it (withPlugin) is another object, unmarked, and simply bumps again.
const held = new WeakMap<object, number | 'every workspace'>();

export function markWorkspaceTurn(trx: object, firmId: number | 'every workspace'): void {
  held.set(trx, firmId);
}

export function holdsWorkspaceTurn(trx: object, firmId: number): boolean {
  const turn = held.get(trx);
  return turn === 'every workspace' || turn === firmId;
}
