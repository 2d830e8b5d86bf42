// Invoice numbers (docs/api-decisions.md, "Invoices"): doc_number is the estimate's and shared by
// all its invoices, so each invoice also gets its own, "<doc_number>-<n>" (1042-2) with n its
// 1-based place among the workspace's invoices of that doc_number, or "INV-<n>" counted among the
// invoices without a doc_number. Assigned when the invoice is made and never reused: a void
// invoice keeps its number, and the counter keeps counting past invoices deleted with their job.
import type { Executor } from '#db/dialect.ts';

/** An invoice's number from its doc_number and its place among that doc_number's invoices. */
export function invoiceNumber(docNumber: number | null, n: number): string {
  return docNumber === null ? `INV-${n}` : `${docNumber}-${n}`;
}

/**
 * The next number for an invoice of `docNumber`, in the caller's transaction. One upsert on the
 * workspace's counter row: concurrent creates queue on that row (PostgreSQL) or on the single
 * writer (SQLite), so each gets its own n, and the unique (firm_id, invoice_number) index stands
 * behind it.
 */
export async function nextInvoiceNumber(trx: Executor, firmId: number, docNumber: number | null): Promise<string> {
  const row = await trx
    .insertInto('invoice_number_counters')
    .values({ firm_id: firmId, doc_key: docNumber === null ? '' : String(docNumber), last_n: 1 })
    .onConflict((oc) =>
      oc
        .columns(['firm_id', 'doc_key'])
        .doUpdateSet((eb) => ({ last_n: eb('invoice_number_counters.last_n', '+', 1) })),
    )
    .returning('last_n')
    .executeTakeFirstOrThrow();
  return invoiceNumber(docNumber, Number(row.last_n));
}
