// What a site merge moves (src/area.ts, mergeMovers.location): the merged-away site's condition
// ratings go to the kept site's history. The kept site's pci stays its own latest rating unless it
// has none, when it takes the merged-away site's.
import type { MergeMover } from '#src/area.ts';

export const ratingSiteMergeMovers: readonly MergeMover[] = [
  {
    label: 'condition ratings',
    async count(db, fromId, scope) {
      const row = await db
        .selectFrom('condition_ratings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('firm_id', '=', scope.firmId)
        .where('location_id', '=', fromId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async move(trx, fromId, toId, scope) {
      await trx
        .updateTable('condition_ratings')
        .set({ location_id: toId })
        .where('firm_id', '=', scope.firmId)
        .where('location_id', '=', fromId)
        .execute();
      const from = await trx.selectFrom('locations').select('pci').where('id', '=', fromId).executeTakeFirst();
      if (from?.pci != null)
        await trx
          .updateTable('locations')
          .set({ pci: from.pci })
          .where('id', '=', toId)
          .where('firm_id', '=', scope.firmId)
          .where('pci', 'is', null)
          .execute();
    },
  },
];
