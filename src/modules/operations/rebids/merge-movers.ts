// What a site merge moves (document 2: merges move "re-bid history"; src/area.ts,
// mergeMovers.location): the merged-away site's re-bid history goes to the kept site, and so do
// its re-bid states, except where the kept site has its own state for that cycle (the kept site's
// choice wins; the merged-away one stays on the archived site, where no re-bid shows).
import type { MergeMover } from '#src/area.ts';
import type { Executor } from '#db/dialect.ts';

async function countOf(db: Executor, table: 'rebid_history' | 'rebid_states', firmId: number, fromId: number) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .where('location_id', '=', fromId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const rebidSiteMergeMovers: readonly MergeMover[] = [
  {
    label: 're-bid history',
    count: (db, fromId, scope) => countOf(db, 'rebid_history', scope.firmId, fromId),
    async move(trx, fromId, toId, scope) {
      await trx
        .updateTable('rebid_history')
        .set({ location_id: toId })
        .where('firm_id', '=', scope.firmId)
        .where('location_id', '=', fromId)
        .execute();
    },
  },
  {
    label: 're-bid choices',
    count: (db, fromId, scope) => countOf(db, 'rebid_states', scope.firmId, fromId),
    async move(trx, fromId, toId, scope) {
      await trx
        .updateTable('rebid_states')
        .set({ location_id: toId })
        .where('firm_id', '=', scope.firmId)
        .where('location_id', '=', fromId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('rebid_states as kept')
                .select('kept.id')
                .where('kept.location_id', '=', toId)
                .whereRef('kept.cycle_id', '=', 'rebid_states.cycle_id'),
            ),
          ),
        )
        .execute();
    },
  },
];
