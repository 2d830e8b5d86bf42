// Invoice numbers (issue 24; docs/api-decisions.md, "Invoices"): doc_number is shared by an
// estimate, its proposal and all its invoices, so every invoice of one estimate read "Invoice
// #1042". Each invoice gets its own number, assigned when it is made and never reused:
//
// - invoices.invoice_number: "<doc_number>-<n>" (1042-2), n its 1-based place among the
//   workspace's invoices of that doc_number, or "INV-<n>" among those without one. Unique per
//   workspace. Existing invoices are numbered here in creation order (created_at, then id).
// - invoice_number_counters: the last n given per workspace and doc_number ('' for none). A new
//   invoice takes the next with one upsert, which serialises concurrent creates on its row on
//   both engines, and a number stays given even when its invoice goes with a job deleted outright.
//
// A fixed step: it writes its own rows with plain SQL and calls no service code.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('invoice_number', 'text').execute();
  await sql`
    UPDATE invoices SET invoice_number = (
      SELECT CASE WHEN r.doc_number IS NULL THEN 'INV-' || CAST(r.n AS TEXT)
                  ELSE CAST(r.doc_number AS TEXT) || '-' || CAST(r.n AS TEXT) END
      FROM (
        SELECT id, doc_number,
               ROW_NUMBER() OVER (PARTITION BY firm_id, doc_number ORDER BY created_at, id) AS n
        FROM invoices
      ) r
      WHERE r.id = invoices.id
    )`.execute(db);
  await db.schema
    .createIndex('invoices_firm_invoice_number')
    .on('invoices')
    .columns(['firm_id', 'invoice_number'])
    .unique()
    .execute();

  await db.schema
    .createTable('invoice_number_counters')
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    /** The doc_number as text, '' for invoices without one. */
    .addColumn('doc_key', 'text', (c) => c.notNull())
    .addColumn('last_n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_number_counters_pk', ['firm_id', 'doc_key'])
    .execute();
  await sql`
    INSERT INTO invoice_number_counters (firm_id, doc_key, last_n)
    SELECT firm_id, COALESCE(CAST(doc_number AS TEXT), ''), COUNT(*)
    FROM invoices
    GROUP BY firm_id, doc_number`.execute(db);
}
