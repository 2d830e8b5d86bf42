// The customers export dataset (document 3, Export dataset rows): the customer object, which
// already carries archived_at, for every customer of the workspace, archived ones included (a
// sync client learns of archiving from archived_at).
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import { clientAccountObject } from './serialize.ts';

export const customersDataset = defineDataset({
  name: 'customers',
  description: 'Customers (client accounts), archived ones included with archived_at',
  changedSinceFields: ['updated_at'],
  readBatch(db, { firmId, afterId, limit, updatedAfter }) {
    let qb = db.selectFrom('client_accounts').selectAll().where('firm_id', '=', firmId).where('id', '>', afterId);
    if (updatedAfter !== undefined) qb = qb.where(changedSince(['updated_at'], updatedAfter));
    return qb.orderBy('id').limit(limit).execute();
  },
  toRow: clientAccountObject,
});
