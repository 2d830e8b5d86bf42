// The change_orders export dataset (document 3, Export dataset rows: id, job_id, number, title,
// kind, status, source, stage, amount_delta, tax_delta, cost_delta, days_delta, ep_estimate_id,
// decision_comment, sent_at, signed_at, created_at, updated_at), changed-since by updated_at, only
// change orders on jobs the user sees. An open priced change order's figures follow its estimate,
// so an estimate change makes it changed too (its updated_at on the wire moves with it).
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import { type ChangeOrderRow, changeOrdersOf } from './repo.ts';
import { changeOrderExportRow } from './serialize.ts';

export const changeOrdersDataset = defineDataset({
  name: 'change_orders',
  description: 'Change orders with their figures, stage and decision',
  changedSinceFields: ['updated_at'],
  readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    let qb = changeOrdersOf(db, firmId, user).where('change_orders.id', '>', afterId);
    if (updatedAfter !== undefined)
      qb = qb.where((eb) =>
        eb.or([
          changedSince(['change_orders.updated_at'], updatedAfter),
          eb.and([
            eb('change_orders.kind', '!=', 'quick'),
            eb('change_orders.status', 'in', ['draft', 'sent']),
            changedSince(['estimates.updated_at'], updatedAfter),
          ]),
        ]),
      );
    return qb.orderBy('change_orders.id').limit(limit).execute() as Promise<ChangeOrderRow[]>;
  },
  toRow: (row: ChangeOrderRow) => changeOrderExportRow(row),
});
