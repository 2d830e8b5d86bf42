// The invoices export dataset (document 3, Export dataset rows: the shape of GET
// /v1/jobs/{id}/invoices, whose rows leave line items out, as the export promises), changed-since
// by updated_at, only invoices on jobs the user sees.
import { onVisibleJob } from '#crm/index.ts';
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import { invoicesOf } from './repo.ts';
import { type InvoiceRow, invoiceSummary } from './serialize.ts';

export const invoicesDataset = defineDataset({
  name: 'invoices',
  description: "Invoices without line items, as a job's invoice list shows them (GET /v1/jobs/{id}/invoices)",
  changedSinceFields: ['updated_at'],
  readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    let qb = onVisibleJob(invoicesOf(db, firmId).where('invoices.id', '>', afterId), 'invoices.job_id', firmId, user);
    if (updatedAfter !== undefined) qb = qb.where(changedSince(['invoices.updated_at'], updatedAfter));
    return qb.orderBy('invoices.id').limit(limit).execute() as Promise<InvoiceRow[]>;
  },
  toRow: (row: InvoiceRow) => invoiceSummary(row),
});
