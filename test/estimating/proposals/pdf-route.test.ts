// GET /v1/proposals/{id}/pdf over HTTP: application/pdf with a download filename, the proposal's
// lines, totals, deposit and terms read back from the PDF, its photos embedded, and after
// acceptance the signed document with the signature block.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ProposalDocument } from '#estimating/proposals/document.ts';
import { documentHash } from '#platform/signing/document-hash.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { readPdf } from '#test/helpers/pdf-text.ts';
import { image, multipartBody, uploadPhoto } from '../../field/photos/upload.ts';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ name: 'Acme Paving' });
});
afterAll(() => t.close());

let serial = 0;
async function proposal() {
  const job = (
    await w.api.post('/v1/jobs', {
      name: `PDF lot ${++serial}`,
      contact_name: 'Dana Smith',
      contact_email: 'dana@example.com',
    })
  ).body.data;
  const e = (await w.api.post('/v1/estimates', { job_id: job.id })).body.data;
  await w.api.post(`/v1/estimates/${e.id}/line-items`, {
    name: 'Sealcoat east lot',
    unit: 'SF',
    quantity: 12_000,
    unit_cost: 0.2,
  });
  await w.api.post(`/v1/estimates/${e.id}/line-items`, {
    name: 'Restripe stalls',
    unit: 'EA',
    quantity: 60,
    unit_cost: 8,
  });
  for (let i = 0; i < 2; i++) {
    const up = await uploadPhoto(t, w, job.id, await image('jpeg', 320, 200), { title: `Before ${i + 1}` });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
  }
  const p = (await w.api.post(`/v1/estimates/${e.id}/proposal`)).body.data;
  await w.api.patch(`/v1/proposals/${p.id}`, {
    deposit_percent: 30,
    terms: { items: [{ text: 'Net 15 on completion', on: true }] },
  });
  return { job, p: (await w.api.get(`/v1/proposals/${p.id}`)).body.data };
}

const getPdf = (id: number) =>
  t.app.inject({ method: 'GET', url: `/v1/proposals/${id}/pdf`, headers: { 'x-api-key': w.key } });

it('answers the proposal as a PDF with its lines, totals, deposit, terms and photos', async () => {
  const { p } = await proposal();
  const res = await getPdf(p.id);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="proposal-${p.doc_number}.pdf"`);
  const pdf = await readPdf(res.rawPayload);
  expect(pdf.flat).toContain('Sealcoat east lot');
  expect(pdf.flat).toContain('Restripe stalls');
  const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  expect(pdf.flat).toContain(money(p.totals.total));
  expect(pdf.flat).toContain(money(p.totals.deposit!));
  expect(pdf.flat).toContain('Net 15 on completion');
  expect(pdf.flat).toContain('Dana Smith');
  expect(pdf.pages.reduce((a, pg) => a + pg.images, 0)).toBe(2);
  expect(pdf.flat).not.toContain('Document SHA-256');
});

it('after acceptance renders the document the customer signed with the signature block', async () => {
  const { p } = await proposal();
  const row = await t.database.db.selectFrom('proposals').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
  const { loadDocument } = await import('#estimating/proposals/load.ts');
  const signed: ProposalDocument = (await loadDocument(t.database.db, row)).document;
  const hash = documentHash(signed);
  await t.database.db
    .updateTable('proposals')
    .set({
      status: 'accepted',
      accepted_at: '2026-11-24T15:00:00.000000',
      signed_at: '2026-11-24T15:00:00.000000',
      signer_name: 'Dana Smith',
      signer_email: 'dana@example.com',
      consent_version: 'esign-2026-11',
      signed_document: JSON.stringify(signed),
      document_sha256: hash,
    })
    .where('id', '=', p.id)
    .execute();
  // A later change of the estimate's lines does not reach the signed PDF.
  await w.api.patch(`/v1/jobs/${p.job_id}`, { name: 'Renamed afterwards' });
  const res = await getPdf(p.id);
  expect(res.headers['content-disposition']).toBe(`attachment; filename="proposal-${p.doc_number}-signed.pdf"`);
  const pdf = await readPdf(res.rawPayload);
  expect(pdf.flat).toContain('Dana Smith');
  expect(pdf.flat).toContain('2026-11-24');
  expect(pdf.flat.replace(/\s/g, '')).toContain(hash);
  expect(pdf.flat).not.toContain('Renamed afterwards');
});

it("shows the workspace's logo (a Company Library PNG or JPEG named by settings.logo_file_id) when show_firm_logo is on", async () => {
  const { payload, contentType } = multipartBody([
    { name: 'file', filename: 'logo.png', data: await image('png', 240, 80), type: 'image/png' },
  ]);
  const up = await t.app.inject({
    method: 'POST',
    url: '/v1/library-files',
    headers: { 'x-api-key': w.key, 'content-type': contentType },
    payload,
  });
  expect(up.statusCode, up.body).toBe(201);
  const logoId = up.json().data.id;
  const { p } = await proposal();
  const images = async () => (await readPdf((await getPdf(p.id)).rawPayload)).pages.reduce((a, pg) => a + pg.images, 0);
  expect(await images()).toBe(2);
  expect((await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { logo_file_id: logoId } })).status).toBe(
    200,
  );
  expect(await images()).toBe(3);
  await w.api.patch(`/v1/proposals/${p.id}`, { display: { show_firm_logo: false } });
  expect(await images()).toBe(2);
  // A setting naming a job photo's id or a missing file shows no logo.
  await w.api.patch(`/v1/proposals/${p.id}`, { display: { show_firm_logo: true } });
  await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { logo_file_id: 999999 } });
  expect(await images()).toBe(2);
});
