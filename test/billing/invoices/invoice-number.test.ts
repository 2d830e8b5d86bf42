// invoice_number (issue 24; docs/api-decisions.md, "Invoices"): doc_number stays the estimate's,
// shared by all its invoices, and each invoice gets its own "<doc_number>-<n>" (or "INV-<n>" without
// a doc_number), n its place among the workspace's invoices of that doc_number, given at creation
// and never reused. Shown on the invoice object, the lists, the export, the page, the PDF and the
// email; distinct under concurrent creates; migration 029 numbers existing invoices in creation order.
import { sql } from 'kysely';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as numberInvoices } from '#db/migrations/029_invoice_numbers.ts';
import { listOutbox, readOutboxMessage } from '#platform/mail/outbox.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { readPdf } from '#test/helpers/pdf-text.ts';
import { job, ok } from '#test/helpers/records.ts';
import { proposalOnJob } from '#test/helpers/scenarios/proposal.ts';
import { jsonLines, rawGet } from '#test/helpers/downloads.ts';

let t: TestApp;
let w: Workspace;

const SETTINGS = { remit_to: { name: 'Acme Paving LLC', address: '1 Yard Rd' }, online_payments_connected: true };

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ name: 'Acme Paving', settings: SETTINGS });
});
afterAll(() => t?.close());

/** The outbox's message whose subject has `text` (the embedded mail default writes .eml files). */
async function mailWith(text: string) {
  for (const m of await listOutbox(t.dataDir)) {
    const raw = await readOutboxMessage(t.dataDir, m.name);
    const parsed = raw === null ? null : await simpleParser(raw);
    if (parsed?.subject?.includes(text)) return parsed;
  }
  throw new Error(`no mail about ${text}`);
}

const LINES = [{ description: 'Sealcoat lot', amount: 100 }];

/** A sent proposal on a job; its estimate's doc_number is what its invoices share. */
async function estimateWithProposal(ws: Workspace = w) {
  const m = await proposalOnJob(ws);
  const estimateId = m.proposal.estimate_id as number;
  const docNumber = m.proposal.doc_number as number;
  expect(typeof docNumber).toBe('number');
  return { job: m.job, estimateId, docNumber };
}

const checkInvoice = async (ws: Workspace, jobId: number, estimateId?: number) =>
  (
    await ok(
      ws.api.post('/v1/invoices', {
        job_id: jobId,
        line_items: LINES,
        client_email: 'ap@maple.test',
        ...(estimateId ? { estimate_id: estimateId } : {}),
      }),
    )
  ).data;

describe('invoice_number', () => {
  it('numbers the invoices of one estimate 1, 2, 3 after its doc_number; a void one keeps its number', async () => {
    const { job: j, estimateId, docNumber } = await estimateWithProposal();
    const first = await checkInvoice(w, j.id, estimateId);
    expect(first).toMatchObject({ doc_number: docNumber, invoice_number: `${docNumber}-1` });
    const online = (
      await ok(w.api.post(`/v1/estimates/${estimateId}/request-payment`, { kind: 'full', confirm_duplicate: true }))
    ).data.invoice;
    expect(online).toMatchObject({ doc_number: docNumber, invoice_number: `${docNumber}-2` });
    await ok(w.api.post(`/v1/invoices/${first.id}/void`));
    const third = await checkInvoice(w, j.id, estimateId);
    expect(third.invoice_number).toBe(`${docNumber}-3`);
    expect((await ok(w.api.get(`/v1/invoices/${first.id}`))).data).toMatchObject({
      status: 'void',
      invoice_number: `${docNumber}-1`,
    });

    // The lists and the export carry it.
    const listed = (await ok(w.api.get(`/v1/invoices?job_id=${j.id}`))).data as any[];
    expect(listed.map((i) => i.invoice_number)).toEqual([`${docNumber}-3`, `${docNumber}-2`, `${docNumber}-1`]);
    const ofJob = (await ok(w.api.get(`/v1/jobs/${j.id}/invoices`))).data as any[];
    expect(ofJob.map((i) => i.invoice_number)).toEqual([`${docNumber}-1`, `${docNumber}-2`, `${docNumber}-3`]);
    const exported = jsonLines((await rawGet(t, '/v1/exports/invoices.jsonl', w.key)).bytes);
    expect(exported.find((r) => r.id === third.id)?.invoice_number).toBe(`${docNumber}-3`);
  });

  it('invoices without a doc_number are INV-1, INV-2 … per workspace', async () => {
    const ws = await t.workspace({ name: 'Fresh Paving', settings: SETTINGS });
    const j = await job(ws, { name: 'No estimate lot' });
    expect((await checkInvoice(ws, j.id)).invoice_number).toBe('INV-1');
    expect((await checkInvoice(ws, j.id)).invoice_number).toBe('INV-2');
    const other = await t.workspace({ name: 'Other Paving', settings: SETTINGS });
    expect((await checkInvoice(other, (await job(other, { name: 'Other lot' })).id)).invoice_number).toBe('INV-1');
  });

  it('the email, the page and the PDF name the invoice by its own number', async () => {
    const { job: j, estimateId, docNumber } = await estimateWithProposal();
    await checkInvoice(w, j.id, estimateId);
    const second = await checkInvoice(w, j.id, estimateId);
    await ok(w.api.post(`/v1/invoices/${second.id}/send`));
    const mail = await mailWith(`invoice #${docNumber}-2`);
    expect(mail.subject).toBe(`Acme Paving: invoice #${docNumber}-2 for $100.00`);
    expect(mail.text).toContain(`#${docNumber}-2`);
    const path = /https?:\/\/[^/\s]+(\/share\/invoices\/[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
    const page = await t.app.inject({ method: 'GET', url: path ?? '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Invoice #${docNumber}-2`);
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/v1/invoices/${second.id}/pdf`,
      headers: { 'x-api-key': w.key },
    });
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="invoice-${docNumber}-2.pdf"`);
    expect((await readPdf(pdf.rawPayload)).text).toContain(`Invoice #${docNumber}-2`);
  });

  it('parallel creates on one proposal get distinct numbers, 1 to n', async () => {
    const { job: j, estimateId, docNumber } = await estimateWithProposal();
    const made = await Promise.all([
      ...Array.from({ length: 12 }, () =>
        w.api.post('/v1/invoices', { job_id: j.id, estimate_id: estimateId, line_items: LINES }),
      ),
      ...Array.from({ length: 4 }, () =>
        w.api.post(`/v1/estimates/${estimateId}/request-payment`, { kind: 'full', confirm_duplicate: true }),
      ),
    ]);
    for (const r of made) expect(r.status, JSON.stringify(r.body)).toBe(201);
    const numbers = made.map((r) => {
      const d = r.body.data;
      return 'invoice' in d ? d.invoice.invoice_number : d.invoice_number;
    });
    expect(new Set(numbers).size).toBe(16);
    expect(numbers.map((n) => Number(n.split('-')[1])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    expect(numbers.every((n) => n.startsWith(`${docNumber}-`))).toBe(true);
  });
});

describe('migration 029_invoice_numbers', () => {
  it('numbers existing invoices in creation order, its counters continue after them, and numbers are unique', async () => {
    // An app of its own: the schema is taken back to before 029 under it, so no other test reads
    // through statements prepared against the old columns.
    const legacy = await startApp();
    try {
      const ws = await legacy.workspace({ name: 'Legacy Paving', settings: SETTINGS });
      const m = await proposalOnJob(ws);
      const [estimateId, docNumber] = [m.proposal.estimate_id as number, m.proposal.doc_number as number];
      const a = await checkInvoice(ws, m.job.id, estimateId);
      const b = await checkInvoice(ws, m.job.id, estimateId);
      const loose = await checkInvoice(ws, m.job.id);
      // As before 029: no numbers, no counters; and b was made before a (created_at decides, not id).
      const db = legacy.database.db;
      await sql`UPDATE invoices SET created_at = '2020-01-01T00:00:00.000000' WHERE id = ${b.id}`.execute(db);
      await db.schema.dropIndex('invoices_firm_invoice_number').execute();
      await db.schema.alterTable('invoices').dropColumn('invoice_number').execute();
      await db.schema.dropTable('invoice_number_counters').execute();
      await numberInvoices(db, legacy.database.dialect);

      const numbers = await sql<{ id: number; invoice_number: string }>`
        SELECT id, invoice_number FROM invoices WHERE firm_id = ${ws.firmId} ORDER BY id`.execute(db);
      expect(numbers.rows.map((r) => [Number(r.id), r.invoice_number])).toEqual([
        [a.id, `${docNumber}-2`],
        [b.id, `${docNumber}-1`],
        [loose.id, 'INV-1'],
      ]);
      const counters = await sql<{ doc_key: string; last_n: number }>`
        SELECT doc_key, last_n FROM invoice_number_counters WHERE firm_id = ${ws.firmId} ORDER BY doc_key`.execute(db);
      expect(counters.rows.map((r) => [r.doc_key, Number(r.last_n)])).toEqual([
        ['', 1],
        [String(docNumber), 2],
      ]);
      // Unique per workspace: a second invoice with a number already given is refused by the database.
      const taken = sql`UPDATE invoices SET invoice_number = ${`${docNumber}-1`} WHERE id = ${a.id}`.execute(db);
      await expect(taken).rejects.toThrow();
    } finally {
      await legacy.close();
    }
  });
});
