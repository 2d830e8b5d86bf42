// Settled webhook deliveries (succeeded, failed, abandoned) and their attempts are kept
// GROUNDWORK_DELIVERY_RETENTION_DAYS (30 by default), then pruned by the webhook worker when it is
// idle, so the delivery tables hold a month of traffic rather than everything ever sent. Pending
// deliveries are never pruned, however old (a retry schedule spans 33 hours). The delivery log
// says how far back it reaches (retention_days).
//
// The walk goes by id, oldest first, a batch at a time, and stops at the first delivery created
// after the cutoff: ids grow with creation, so none after it can have settled before the cutoff.
// Each run therefore reads what it deletes and the few old deliveries still pending, not the table,
// and needs no index of its own (one more index written on every settle would cost the delivery
// bookkeeping it is meant to keep small).
import type { Database } from '#db/database.ts';

/** Deletes settled deliveries last changed before `cutoff` (stored time), their attempts and bodies; returns how many. */
export async function pruneSettledDeliveries(database: Database, cutoff: string, batch = 1000): Promise<number> {
  const { db } = database;
  let after = 0;
  let removed = 0;
  for (;;) {
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'created_at', 'updated_at'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batch)
      .execute();
    if (rows.length === 0) return removed;
    const settled = rows.filter((r) => r.status !== 'pending' && r.updated_at < cutoff).map((r) => r.id);
    if (settled.length > 0) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', settled).execute();
        // Checked again in the statements: a delivery is only ever settled once, but this keeps a
        // pending one (were it ever reopened) and the body it sends out of the delete whatever
        // happened since the read.
        await trx
          .deleteFrom('webhook_payloads')
          .where('delivery_id', 'in', (eb) =>
            eb
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('id', 'in', settled)
              .where('status', '!=', 'pending'),
          )
          .execute();
        await trx
          .deleteFrom('webhook_deliveries')
          .where('id', 'in', settled)
          .where('status', '!=', 'pending')
          .execute();
      });
      removed += settled.length;
    }
    const last = rows[rows.length - 1]!;
    if (rows.length < batch || last.created_at >= cutoff) return removed;
    after = last.id;
  }
}
