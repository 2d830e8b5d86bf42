// Files on jobs and customers (document 3, File; Photos, photo tags, files): the uploads with every
// kind we keep and every listed refusal, the customer-portal rule, reading one with its signed_url,
// the download redirect, the change and the delete.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job, logOf, ok, Z_SECONDS } from '#test/helpers/records.ts';
import { image } from '#test/field/photos/upload.ts';
import { elf, exe, heic, ole2, pdf, postForm, rar, rtf, sevenZip, uploadJobFile, zip, type Part } from './upload.ts';

let t: TestApp;
let w: Workspace;
let jobId: number;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  jobId = (await job(w)).id;
});
afterAll(() => t.close());

/** Fetches a signed link with no key, as a browser would. */
async function open(url: string) {
  const u = new URL(url);
  const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    disposition: String(res.headers['content-disposition']),
    body: res.rawPayload,
  };
}

/** The objects a workspace has stored as files (temporary files of the local adapter aside). */
function storedFiles(firmId: number): string[] {
  const dir = path.join(t.dataDir, 'objects', 'firms', String(firmId), 'files');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.startsWith('.')) : [];
}

const created = async (p: Promise<{ status: number; body: any }>) => {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

describe('POST /v1/jobs/{job_id}/files', () => {
  it('keeps every listed kind, told from its bytes and extension, and logs it on the job', async () => {
    const x = await t.workspace();
    const j = await job(x);
    const kinds: [Buffer, string, string][] = [
      [pdf(), 'Site plan.pdf', 'application/pdf'],
      [ole2(), 'Bid.doc', 'application/msword'],
      [ole2(), 'Takeoff.xls', 'application/vnd.ms-excel'],
      [ole2(), 'Pitch.ppt', 'application/vnd.ms-powerpoint'],
      [zip(), 'Contract.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [zip(), 'Quantities.XLSX', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      [zip(), 'Deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
      [zip('plan.txt', 'hello'), 'Bundle.zip', 'application/zip'],
      [Buffer.from('Gate code 4411\nCall Marcus before 8\n'), 'notes.txt', 'text/plain'],
      [Buffer.from('item,qty\nSealcoat,12000\nCrack fill,430\n'), 'quantities.csv', 'text/csv'],
      [Buffer.from('Façade résumé — 2 “quotes”'), 'unicode.txt', 'text/plain'],
      [rtf(), 'Schedule.rtf', 'application/rtf'],
      [await image('jpeg'), 'lot.jpg', 'image/jpeg'],
      [await image('png'), 'lot.png', 'image/png'],
      [await image('webp'), 'lot.webp', 'image/webp'],
      [await image('gif'), 'lot.gif', 'image/gif'],
      [heic(), 'IMG_0042.HEIC', 'image/heic'],
      [rar(), 'Photos.rar', 'application/vnd.rar'],
      [sevenZip(), 'Archive.7z', 'application/x-7z-compressed'],
      // A file whose bytes say what it is needs no extension.
      [pdf(), 'scan', 'application/pdf'],
    ];
    for (const [data, filename, type] of kinds) {
      const res = await uploadJobFile(t, x, j.id, data, filename);
      expect(res.status, `${filename}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.data, filename).toMatchObject({ filename, content_type: type, size_bytes: data.length });
    }
    expect(storedFiles(x.firmId)).toHaveLength(kinds.length);
    const log = await logOf(x, j.id);
    expect(log.filter((e) => e.kind === 'file_added')).toHaveLength(kinds.length);
    expect(log.find((e) => e.kind === 'file_added')).toMatchObject({
      summary: 'File "scan" added',
      user: { id: x.ownerId },
    });
  });

  it('answers the file object: source job, office by default, the uploader, the download path', async () => {
    const data = pdf('Overlay spec');
    const f = await created(
      uploadJobFile(t, w, jobId, data, 'C:\\fakepath\\Overlay spec.pdf', { description: ' Mill 2" ' }),
    );
    expect(f).toEqual({
      id: f.id,
      filename: 'Overlay spec.pdf',
      content_type: 'application/pdf',
      size_bytes: data.length,
      description: 'Mill 2"',
      document_type: null,
      source: 'job',
      audience: 'office',
      customer_visible: false,
      job_id: jobId,
      client_account_id: null,
      contact_id: null,
      work_order_id: null,
      folder: null,
      uploaded_by: { id: w.ownerId, name: expect.any(String) },
      download_url: `/v1/files/${f.id}/download`,
      signed_url: null,
      signed_url_expires_at: null,
      attachment: null,
      created_at: expect.stringMatching(Z_SECONDS),
    });
    expect((await created(uploadJobFile(t, w, jobId, pdf(), 'Bid\tfinal.pdf'))).filename).toBe('Bid_final.pdf');
    const long = await uploadJobFile(t, w, jobId, pdf(), `${'x'.repeat(252)}.pdf`);
    expect(long).toMatchObject({ status: 400, body: { error: 'filename must be at most 255 characters' } });
    const field = await created(uploadJobFile(t, w, jobId, pdf(), 'crew.pdf', { audience: 'field' }));
    expect(field.audience).toBe('field');
    // Fields may also follow the file.
    const after = await created(
      postForm(t, w.key, `/v1/jobs/${jobId}/files`, [
        { name: 'file', filename: 'later.pdf', data: pdf() },
        { name: 'description', value: 'Sent after the file' },
        { name: 'audience', value: 'field' },
      ]),
    );
    expect(after).toMatchObject({ description: 'Sent after the file', audience: 'field' });
  });

  it('answers every listed 400, and keeps nothing', async () => {
    const x = await t.workspace();
    const j = await job(x);
    const file = (filename: string, data: Buffer): Part => ({ name: 'file', filename, data });
    const nulText = Buffer.concat([Buffer.from('line one\n'), Buffer.from([0]), Buffer.from('line two\n')]);
    const cases: [Part[], string, string?][] = [
      [[{ name: 'description', value: 'No file' }], 'No file provided'],
      [[file('empty.pdf', Buffer.alloc(0))], 'No file provided', 'The file is empty'],
      [[{ name: 'file', value: 'not a file part' }], 'No file provided'],
      [[file('a.pdf', pdf()), file('b.pdf', pdf())], 'One file per request'],
      [[file('setup.exe', exe())], 'Invalid file'],
      [[file('tool', elf())], 'Invalid file'],
      [[file('tool.pdf', elf())], 'Invalid file'],
      [[file('notes.txt', nulText)], 'Invalid file', 'A .txt file must be UTF-8 text'],
      [
        [file('list.csv', Buffer.from([0x61, 0x2c, 0xff, 0xfe, 0x0a]))],
        'Invalid file',
        'A .csv file must be UTF-8 text',
      ],
      [[file('Contract.docx', pdf())], 'Invalid file', "The file's contents do not match its .docx extension"],
      [[file('setup.msi', ole2())], 'Invalid file', "The file's contents do not match its .msi extension"],
      [[file('plan.txt', pdf())], 'Invalid file', "The file's contents do not match its .txt extension"],
      [[file('readme', Buffer.from('plain words'))], 'Invalid file'],
      [[{ name: 'audience', value: 'crew' }, file('a.pdf', pdf())], 'audience must be office or field'],
      [[file('a.pdf', pdf()), { name: 'audience', value: 'everyone' }], 'audience must be office or field'],
      [[{ name: 'customer_visible', value: 'yes' }, file('a.pdf', pdf())], 'customer_visible must be true or false'],
      [[{ name: 'folder_id', value: '1' }, file('a.pdf', pdf())], 'folder_id applies to library files only'],
      [[{ name: 'colour', value: 'red' }, file('a.pdf', pdf())], 'Unknown fields: colour'],
      [[file('a.pdf', pdf()), { name: 'colour', value: 'red' }], 'Unknown fields: colour'],
      [[{ name: 'attachment', filename: 'a.pdf', data: pdf() }], 'Unknown fields: attachment'],
      [
        [{ name: 'description', value: 'x'.repeat(2001) }, file('a.pdf', pdf())],
        'description must be at most 2000 characters',
      ],
    ];
    for (const [parts, error, message] of cases) {
      const res = await postForm(t, x.key, `/v1/jobs/${j.id}/files`, parts);
      expect(res.status, error).toBe(400);
      expect(res.body.error, JSON.stringify(parts.map((p) => p.name))).toBe(error);
      if (message) expect(res.body.message).toBe(message);
    }
    for (const [type, payload] of [
      ['application/json', JSON.stringify({ file: 'JVBERi0=' })],
      ['text/plain', 'hello'],
      ['application/octet-stream', pdf()],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/jobs/${j.id}/files`,
        headers: { 'x-api-key': x.key, 'content-type': type },
        payload,
      });
      expect(res.statusCode, type).toBe(400);
      expect(res.json().error).toBe('Upload with multipart/form-data');
    }
    expect((await ok(x.api.get(`/v1/jobs/${j.id}/files`))).data).toEqual([]);
    expect(storedFiles(x.firmId)).toEqual([]);
  });

  it("answers 404 Job not found for another workspace's job, before reading the body", async () => {
    const other = await t.workspace();
    const res = await uploadJobFile(t, other, jobId, pdf(), 'x.pdf');
    expect(res).toMatchObject({ status: 404, body: { error: 'Job not found' } });
    expect((await other.api.post(`/v1/jobs/${jobId}/files`, {})).status).toBe(404);
    expect(storedFiles(other.firmId)).toEqual([]);
  });
});

describe('customer_visible and the customer portal', () => {
  it('needs the job linked to a customer whose portal is on: 409 with portal_status, nothing kept', async () => {
    const off = await t.workspace();
    const on = await t.workspace({ settings: { customer_portal_enabled: true } });
    const unlinked = await job(on);
    const offCustomer = await account(off, 'Maple Ridge HOA');
    const offJob = await job(off, { client_account_id: offCustomer.id });
    const archived = await account(on, 'Old Plaza LLC');
    const archivedJob = await job(on, { client_account_id: archived.id });
    await ok(on.api.patch(`/v1/client-accounts/${archived.id}`, { archived: true }));
    const cases: [Workspace, number, string][] = [
      [on, unlinked.id, 'job_not_linked'],
      [on, archivedJob.id, 'account_archived'],
      [off, offJob.id, 'portal_disabled'],
    ];
    for (const [x, j, status] of cases) {
      for (const order of ['before', 'after'] as const) {
        const visible = { name: 'customer_visible', value: 'true' };
        const file = { name: 'file', filename: 'Warranty.pdf', data: pdf() };
        const res = await postForm(
          t,
          x.key,
          `/v1/jobs/${j}/files`,
          order === 'before' ? [visible, file] : [file, visible],
        );
        expect(res.status, `${status} ${order}`).toBe(409);
        expect(res.body).toMatchObject({
          error: 'Customer portal not ready',
          code: 'portal_not_ready',
          portal_status: status,
        });
        expect(typeof res.body.message).toBe('string');
      }
      expect((await ok(x.api.get(`/v1/jobs/${j}/files`))).data).toEqual([]);
    }
    expect([...storedFiles(on.firmId), ...storedFiles(off.firmId)]).toEqual([]);
    // Linked, not archived, portal on: visible to the customer. false needs nothing.
    const customer = await account(on, 'Northgate Plaza LLC');
    const linked = await job(on, { client_account_id: customer.id });
    const shown = await created(uploadJobFile(t, on, linked.id, pdf(), 'Warranty.pdf', { customer_visible: 'true' }));
    expect(shown.customer_visible).toBe(true);
    const hidden = await created(
      uploadJobFile(t, on, unlinked.id, pdf(), 'Internal.pdf', { customer_visible: 'false' }),
    );
    expect(hidden.customer_visible).toBe(false);
  });

  it('PATCH customer_visible true follows the same rule', async () => {
    const on = await t.workspace({ settings: { customer_portal_enabled: true } });
    const unlinked = await job(on);
    const f = await created(uploadJobFile(t, on, unlinked.id, pdf(), 'a.pdf'));
    const refused = await on.api.patch(`/v1/files/${f.id}`, { customer_visible: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'Customer portal not ready', portal_status: 'job_not_linked' });
    const customer = await account(on, 'Parish');
    await ok(on.api.patch(`/v1/jobs/${unlinked.id}`, { client_account_id: customer.id }));
    expect((await ok(on.api.patch(`/v1/files/${f.id}`, { customer_visible: true }))).data.customer_visible).toBe(true);
    await ok(on.api.patch(`/v1/client-accounts/${customer.id}`, { archived: true }));
    const archived = await on.api.patch(`/v1/files/${f.id}`, { customer_visible: true });
    expect(archived.body.portal_status).toBe('account_archived');
    // Turning it off is always allowed.
    expect((await ok(on.api.patch(`/v1/files/${f.id}`, { customer_visible: false }))).data.customer_visible).toBe(
      false,
    );
  });
});

describe('POST /v1/client-accounts/{account_id}/files', () => {
  it('keeps a customer file: source customer, client_account_id set, no job', async () => {
    const customer = await account(w, 'Columbus Self Storage');
    const f = await created(
      postForm(t, w.key, `/v1/client-accounts/${customer.id}/files`, [
        { name: 'description', value: 'Signed MSA' },
        { name: 'file', filename: 'MSA.pdf', data: pdf() },
      ]),
    );
    expect(f).toMatchObject({
      source: 'customer',
      client_account_id: customer.id,
      job_id: null,
      description: 'Signed MSA',
      audience: 'office',
      customer_visible: false,
      folder: null,
    });
    // The job-only fields and the library's folder are refused.
    for (const [name, value, error] of [
      ['audience', 'field', 'audience applies to job files only'],
      ['customer_visible', 'true', 'customer_visible applies to job files only'],
      ['folder_id', '1', 'folder_id applies to library files only'],
    ]) {
      const res = await postForm(t, w.key, `/v1/client-accounts/${customer.id}/files`, [
        { name: name!, value: value! },
        { name: 'file', filename: 'x.pdf', data: pdf() },
      ]);
      expect(res.status, name).toBe(400);
      expect(res.body.error).toBe(error);
    }
    const other = await t.workspace();
    const foreign = await postForm(t, other.key, `/v1/client-accounts/${customer.id}/files`, [
      { name: 'file', filename: 'x.pdf', data: pdf() },
    ]);
    expect(foreign).toMatchObject({ status: 404, body: { error: 'Client account not found' } });
    const json = await w.api.raw.post(`/v1/client-accounts/${customer.id}/files`, { file: 'x' });
    expect(json.body.error).toBe('Upload with multipart/form-data');
  });
});

describe('GET /v1/files/{id} and its download', () => {
  it('gives a keyless signed_url that works for one hour and downloads under the filename', async () => {
    const data = Buffer.from('item,qty\nSealcoat,12000\n');
    const f = await created(uploadJobFile(t, w, jobId, data, 'Take off — Lot B.csv'));
    const before = Date.now();
    const got = (await ok(w.api.get(`/v1/files/${f.id}`))).data;
    expect({ ...got, signed_url: null, signed_url_expires_at: null }).toEqual(f);
    expect(got.signed_url_expires_at).toMatch(Z_SECONDS);
    const expires = Date.parse(got.signed_url_expires_at!);
    expect(expires - before).toBeGreaterThan(3590_000);
    expect(expires - before).toBeLessThanOrEqual(3601_000);
    expect(Number(new URL(got.signed_url!).searchParams.get('expires')) * 1000).toBe(expires);
    const file = await open(got.signed_url!);
    expect(file.status).toBe(200);
    expect(file.body.equals(data)).toBe(true);
    expect(file.type).toBe('text/csv; charset=utf-8');
    expect(file.disposition).toBe(
      `attachment; filename="Take off _ Lot B.csv"; filename*=UTF-8''Take%20off%20%E2%80%94%20Lot%20B.csv`,
    );
    // Lists and changes show no signed link.
    const listed = (await ok(w.api.get(`/v1/files?job_id=${jobId}`))).data.find((x: any) => x.id === f.id);
    expect([listed!.signed_url, listed!.signed_url_expires_at]).toEqual([null, null]);
  });

  it('redirects /download (302) to a short-lived link that serves the bytes', async () => {
    const data = pdf('Redirected');
    const f = await created(uploadJobFile(t, w, jobId, data, 'Redirect.pdf'));
    const before = Math.floor(Date.now() / 1000);
    const res = await w.api.get(f.download_url);
    expect(res.status).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const location = String(res.headers.location);
    const expires = Number(new URL(location).searchParams.get('expires'));
    expect(expires - before).toBeGreaterThanOrEqual(299);
    expect(expires - before).toBeLessThanOrEqual(301);
    const file = await open(location);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect(file.body.equals(data)).toBe(true);
    expect(file.disposition).toBe('attachment; filename="Redirect.pdf"');
  });

  it("answers 404 File not found for a missing file or another workspace's", async () => {
    const f = await created(uploadJobFile(t, w, jobId, pdf(), 'Mine.pdf'));
    const other = await t.workspace();
    for (const [x, id] of [
      [w, 999999],
      [other, f.id],
    ] as const) {
      for (const p of [`/v1/files/${id}`, `/v1/files/${id}/download`]) {
        const res = await x.api.get(p);
        expect(res.status, p).toBe(404);
        expect(res.body).toEqual({ error: 'File not found' });
      }
      expect((await x.api.patch(`/v1/files/${id}`, { description: 'x' })).body.error).toBe('File not found');
      expect((await x.api.delete(`/v1/files/${id}`)).body.error).toBe('File not found');
    }
  });

  it("hides a job's files from a user who sees only their own jobs", async () => {
    const x = await t.workspace();
    const crew = await t.user(x.firmId, { role: 'member', sees_own_jobs_only: true });
    const j = await job(x);
    const f = await created(uploadJobFile(t, x, j.id, pdf(), 'Office only.pdf'));
    const customer = await account(x, 'Visible Co');
    const shared = await created(
      postForm(t, x.key, `/v1/client-accounts/${customer.id}/files`, [
        { name: 'file', filename: 'All.pdf', data: pdf() },
      ]),
    );
    expect((await crew.api.get(`/v1/files/${f.id}`)).status).toBe(404);
    const ids = (await ok(crew.api.get('/v1/files'))).data.map((file: any) => file.id);
    expect(ids).toEqual([shared.id]);
  });
});

describe('PATCH /v1/files/{id}', () => {
  it('changes only what is sent; audience and customer_visible are for job files only', async () => {
    const f = await created(uploadJobFile(t, w, jobId, pdf(), 'Patch.pdf', { description: 'Old' }));
    expect((await ok(w.api.patch(`/v1/files/${f.id}`, { audience: 'field' }))).data).toMatchObject({
      audience: 'field',
      description: 'Old',
    });
    expect((await ok(w.api.patch(`/v1/files/${f.id}`, { description: '  New  ' }))).data.description).toBe('New');
    expect((await ok(w.api.patch(`/v1/files/${f.id}`, { description: null }))).data).toMatchObject({
      description: null,
      audience: 'field',
    });
    for (const [body, error] of [
      [{ audience: 'crew' }, 'audience must be office or field'],
      [{ folder_id: 1 }, 'folder_id applies to library files only'],
      [{ filename: 'x.pdf' }, 'Unknown fields: filename'],
    ] as const) {
      const res = await w.api.raw.patch(`/v1/files/${f.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
    const customer = await account(w, 'Patch Co');
    const own = await created(
      postForm(t, w.key, `/v1/client-accounts/${customer.id}/files`, [
        { name: 'file', filename: 'c.pdf', data: pdf() },
      ]),
    );
    for (const [body, error] of [
      [{ audience: 'field' }, 'audience applies to job files only'],
      [{ customer_visible: false }, 'customer_visible applies to job files only'],
    ] as const) {
      const res = await w.api.patch(`/v1/files/${own.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error, field: Object.keys(body)[0] });
    }
    expect((await ok(w.api.patch(`/v1/files/${own.id}`, { description: 'Customer copy' }))).data.description).toBe(
      'Customer copy',
    );
  });
});

describe('DELETE /v1/files/{id}', () => {
  it('deletes the record, then its stored object; a second delete is 404', async () => {
    const x = await t.workspace();
    const j = await job(x);
    const f = await created(uploadJobFile(t, x, j.id, pdf(), 'Gone.pdf'));
    const link = (await ok(x.api.get(`/v1/files/${f.id}`))).data.signed_url;
    expect(storedFiles(x.firmId)).toHaveLength(1);
    expect((await x.api.delete(`/v1/files/${f.id}`)).status).toBe(204);
    expect((await x.api.get(`/v1/files/${f.id}`)).status).toBe(404);
    expect((await ok(x.api.get(`/v1/jobs/${j.id}/files`))).data).toEqual([]);
    expect(storedFiles(x.firmId)).toEqual([]);
    expect((await open(link!)).status).toBe(404);
    expect((await x.api.delete(`/v1/files/${f.id}`)).status).toBe(404);
  });
});
