// Files through the rest of their life: the GET /v1/files filters and created_after order, merges
// (job, customer, contact) moving them, a job or person deleted outright taking their files'
// objects (and a job its photos'), storage down (503, nothing kept), the 200 MB cap on a streamed
// body, signed links expiring, and files the service makes itself (storeFileObject, then
// recordServiceFileIn in the caller's transaction through recordStored).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actingAs } from '#platform/auth.ts';
import { ManualClock } from '#platform/clock.ts';
import { buildDeps } from '#platform/deps.ts';
import { LocalStorage } from '#platform/storage/local.ts';
import { advanceClock, now, pauseClock, resumeClock } from '#platform/time.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { recordStored } from '#platform/storage/store-then-record.ts';
import { recordServiceFileIn, type ServiceFile, storeFileObject } from '#field/files/service.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, contactVia, job, logOf, ok } from '#test/helpers/records.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';
import { pdf, postForm, uploadJobFile } from './upload.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const objectsOf = (app: TestApp, firmId: number, kind: 'files' | 'photos') => {
  const dir = path.join(app.dataDir, 'objects', 'firms', String(firmId), kind);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.startsWith('.')) : [];
};

const jobFile = async (w: Workspace, jobId: number, filename: string, fields: Record<string, string> = {}) => {
  const res = await uploadJobFile(t, w, jobId, pdf(filename), filename, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const customerFile = async (w: Workspace, accountId: number, filename: string) => {
  const res = await postForm(t, w.key, `/v1/client-accounts/${accountId}/files`, [
    { name: 'file', filename, data: pdf(filename) },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const libraryFile = async (w: Workspace, filename: string) => {
  const res = await postForm(t, w.key, '/v1/library-files', [{ name: 'file', filename, data: pdf(filename) }]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

/** A person's file: no route makes one yet (document 3 lists source contact), so the row is written here. */
async function contactFile(w: Workspace, contactId: number, filename: string): Promise<{ id: number; key: string }> {
  const key = `firms/${w.firmId}/files/contact-${contactId}-${filename.replace(/[^A-Za-z0-9.]/g, '')}`;
  await fs.promises.mkdir(path.join(t.dataDir, 'objects', 'firms', String(w.firmId), 'files'), { recursive: true });
  await fs.promises.writeFile(path.join(t.dataDir, 'objects', ...key.split('/')), pdf(filename));
  const row = await t.database.db
    .insertInto('files')
    .values({
      firm_id: w.firmId,
      storage_key: key,
      filename,
      content_type: 'application/pdf',
      size_bytes: pdf(filename).length,
      description: null,
      document_type: null,
      source: 'contact',
      audience: 'office',
      customer_visible: 0,
      job_id: null,
      client_account_id: null,
      contact_id: contactId,
      work_order_id: null,
      folder_id: null,
      uploaded_by_user_id: w.ownerId,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, key };
}

const ids = async (w: Workspace, query: string) =>
  (await ok(w.api.get(`/v1/files${query}`))).data.map((f: { id: number }) => f.id);

describe('GET /v1/files', () => {
  it('filters by job, customer, contact, source, folder and text; newest first', async () => {
    const w = await t.workspace();
    const j1 = await job(w);
    const j2 = await job(w);
    const customer = await account(w, 'Maple Ridge HOA');
    const person = await contactVia(w, { name: 'Marcus Webb' });
    const a = await jobFile(w, j1.id, 'Overlay PLAN.pdf');
    const b = await jobFile(w, j1.id, 'Photos.pdf', { description: 'Drainage at the north inlet' });
    const c = await jobFile(w, j2.id, 'Other job.pdf');
    const d = await customerFile(w, customer.id, 'MSA.pdf');
    const e = await contactFile(w, person.id, 'Card.pdf');
    const lib = await libraryFile(w, 'Spec.pdf');
    const safety = (await ok(w.api.post('/v1/library-folders', { name: 'Safety' }), [201])).data;
    await ok(w.api.patch(`/v1/files/${lib.id}`, { folder_id: safety.id }));
    await ok(w.api.post(`/v1/jobs/${j1.id}/library-files`, { file_id: lib.id }), [201]);
    expect(await ids(w, '')).toEqual([lib.id, e.id, d.id, c.id, b.id, a.id]);
    expect(await ids(w, `?job_id=${j1.id}`)).toEqual([b.id, a.id]);
    expect(await ids(w, `?client_account_id=${customer.id}`)).toEqual([d.id]);
    expect(await ids(w, `?contact_id=${person.id}`)).toEqual([e.id]);
    expect((await ok(w.api.get(`/v1/files?contact_id=${person.id}`))).data[0]).toMatchObject({
      source: 'contact',
      contact_id: person.id,
    });
    expect(await ids(w, '?source=job')).toEqual([c.id, b.id, a.id]);
    expect(await ids(w, '?source=customer')).toEqual([d.id]);
    expect(await ids(w, '?source=library')).toEqual([lib.id]);
    expect(await ids(w, `?folder_id=${safety.id}`)).toEqual([lib.id]);
    // q: in the filename or the description, any case, taken literally.
    expect(await ids(w, '?q=plan')).toEqual([a.id]);
    expect(await ids(w, '?q=NORTH%20INLET')).toEqual([b.id]);
    expect(await ids(w, '?q=%25')).toEqual([]);
    expect(await ids(w, `?job_id=${j1.id}&q=photos`)).toEqual([b.id]);
    const page = await ok(w.api.get('/v1/files?limit=2&offset=1'));
    expect(page.data.map((f: { id: number }) => f.id)).toEqual([e.id, d.id]);
    expect(page.pagination).toEqual({ total: 6, limit: 2, offset: 1 });
    for (const query of ['?limit=201', '?source=email', '?job_id=0', '?created_after=yesterday']) {
      expect((await w.api.get(`/v1/files${query}`)).status, query).toBe(400);
    }
    expect((await w.api.get('/v1/files?created_after=yesterday')).body).toMatchObject({
      error: 'created_after must be an ISO 8601 timestamp',
      field: 'created_after',
    });
    expect((await ok(w.api.get('/v1/files?limit=200'))).pagination.limit).toBe(200);
  });

  it('created_after answers oldest first, and a whole second sent back leaves no file behind', async () => {
    const w = await t.workspace();
    const j = await job(w);
    pauseClock();
    let made: { id: number; created_at: string }[] = [];
    try {
      const start = now();
      made.push(await jobFile(w, j.id, 'one.pdf'), await jobFile(w, j.id, 'two.pdf'));
      advanceClock(2000);
      made.push(await jobFile(w, j.id, 'three.pdf'));
      advanceClock(2000);
      // Files of the running second are held back until it ends.
      const held = await jobFile(w, j.id, 'four.pdf');
      const before = `${start.slice(0, 10)}T00:00:00Z`;
      expect(await ids(w, `?created_after=${before}`)).toEqual(made.map((f) => f.id));
      // A whole second sent back means after that second.
      expect(await ids(w, `?created_after=${start.slice(0, 19)}Z`)).toEqual([made[2]!.id]);
      advanceClock(1000);
      made.push(held);
      expect(await ids(w, `?created_after=${before}`)).toEqual(made.map((f) => f.id));
      // A page of one still takes the rest of its second (one and two share it).
      const first = await ok(w.api.get(`/v1/files?created_after=${before}&limit=1`));
      expect(first.data.map((f: { id: number }) => f.id)).toEqual([made[0]!.id, made[1]!.id]);
      const next = first.data[first.data.length - 1].created_at;
      expect(await ids(w, `?created_after=${next}&limit=1`)).toEqual([made[2]!.id]);
      expect(await ids(w, `?created_after=${made[2]!.created_at}`)).toEqual([made[3]!.id]);
      // Without created_after: newest first.
      expect(await ids(w, '')).toEqual(made.map((f) => f.id).reverse());
    } finally {
      resumeClock();
      made = [];
    }
  });
});

describe('merges', () => {
  it("a job merge moves the merged-away job's files and its library links", async () => {
    const w = await t.workspace();
    const kept = await job(w);
    const away = await job(w);
    const mine = await jobFile(w, kept.id, 'Kept.pdf');
    const moved = await jobFile(w, away.id, 'Moved.pdf');
    const both = await libraryFile(w, 'On both.pdf');
    const awayOnly = await libraryFile(w, 'Away only.pdf');
    await ok(w.api.post(`/v1/jobs/${kept.id}/library-files`, { file_id: both.id }), [201]);
    await ok(w.api.post(`/v1/jobs/${away.id}/library-files`, { file_id: both.id }), [201]);
    await ok(w.api.post(`/v1/jobs/${away.id}/library-files`, { file_id: awayOnly.id }), [201]);
    await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id }));
    const list = (await ok(w.api.get(`/v1/jobs/${kept.id}/files`))).data;
    expect(list.map((f: any) => f.filename).sort()).toEqual(['Away only.pdf', 'Kept.pdf', 'Moved.pdf', 'On both.pdf']);
    expect(list.filter((f: any) => f.attachment).every((f: any) => f.attachment.job_id === kept.id)).toBe(true);
    const file = (await ok(w.api.get(`/v1/files/${moved.id}`))).data;
    expect(file.job_id).toBe(kept.id);
    const u = new URL(file.signed_url!);
    const served = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(pdf('Moved.pdf'))).toBe(true);
    expect((await ok(w.api.get(`/v1/files/${mine.id}`))).data.job_id).toBe(kept.id);
  });

  it("a customer merge moves the customer's files (the preview counts them)", async () => {
    const w = await t.workspace();
    const kept = await account(w, 'Northgate Plaza LLC');
    const away = await account(w, 'Northgate Plaza');
    const f1 = await customerFile(w, away.id, 'Lease.pdf');
    const f2 = await customerFile(w, away.id, 'Insurance.pdf');
    const preview = (await ok(w.api.get(`/v1/client-accounts/${away.id}/merge-preview?into=${kept.id}`))).data;
    expect(preview.moves).toContainEqual({ count: 2, label: 'files' });
    await ok(w.api.post(`/v1/client-accounts/${away.id}/merge`, { into_client_account_id: kept.id }));
    expect(await ids(w, `?client_account_id=${kept.id}`)).toEqual([f2.id, f1.id]);
  });

  it("a contact merge moves the person's files (the preview counts them)", async () => {
    const w = await t.workspace();
    const kept = await contactVia(w, { name: 'Dana Ortiz', email: 'dana@example.com' });
    const away = await contactVia(w, { name: 'Dana Ortiz', phone: '614-555-0101' });
    const f = await contactFile(w, away.id, 'Card.pdf');
    const preview = (await ok(w.api.get(`/v1/contacts/${away.id}/merge-preview?into=${kept.id}`))).data;
    expect(preview.moves).toContainEqual({ count: 1, label: 'files' });
    await ok(w.api.post(`/v1/contacts/${away.id}/merge`, { into_contact_id: kept.id }));
    expect(await ids(w, `?contact_id=${kept.id}`)).toEqual([f.id]);
  });
});

describe('deleting the owner outright', () => {
  it("a job deleted takes its files' and photos' objects; a linked library file stays in the library", async () => {
    const w = await t.workspace();
    const gone = await job(w);
    const other = await job(w);
    await jobFile(w, gone.id, 'Plan.pdf');
    await jobFile(w, gone.id, 'Spec.pdf');
    const kept = await jobFile(w, other.id, 'Other.pdf');
    const lib = await libraryFile(w, 'Library.pdf');
    await ok(w.api.post(`/v1/jobs/${gone.id}/library-files`, { file_id: lib.id }), [201]);
    expect((await uploadPhoto(t, w, gone.id, await image('jpeg'))).status).toBe(201);
    expect(objectsOf(t, w.firmId, 'files')).toHaveLength(4);
    expect(objectsOf(t, w.firmId, 'photos')).toHaveLength(2); // the photo and its thumbnail
    expect((await w.api.delete(`/v1/jobs/${gone.id}`)).status).toBe(204);
    expect(await ids(w, '')).toEqual([lib.id, kept.id]);
    expect(objectsOf(t, w.firmId, 'files')).toHaveLength(2);
    expect(objectsOf(t, w.firmId, 'photos')).toEqual([]);
    expect((await ok(w.api.get(`/v1/files/${lib.id}`))).data.source).toBe('library');
  });

  it('a person deleted outright takes their files and the objects; archiving keeps them', async () => {
    const w = await t.workspace();
    const person = await contactVia(w, { name: 'Lee Park' });
    const f = await contactFile(w, person.id, 'Card.pdf');
    expect((await w.api.delete(`/v1/contacts/${person.id}`)).status).toBe(204);
    expect(await ids(w, `?contact_id=${person.id}`)).toEqual([f.id]);
    expect((await w.api.delete(`/v1/contacts/${person.id}?hard=true`)).status).toBe(204);
    expect(await ids(w, '')).toEqual([]);
    expect(objectsOf(t, w.firmId, 'files')).toEqual([]);
  });
});

describe('storage down', () => {
  it('answers 503 retryable on every upload route and records nothing', async () => {
    // A data directory under a file: every write fails, as a full or unmounted disk would.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-down-')), 'not-a-folder');
    fs.writeFileSync(file, '');
    const down = await startApp({
      storage: new LocalStorage({ dataDir: path.join(file, 'data'), clock: new ManualClock() }),
    });
    try {
      const x = await down.workspace();
      const j = await job(x);
      const customer = await account(x, 'Down Co');
      for (const url of [`/v1/jobs/${j.id}/files`, `/v1/client-accounts/${customer.id}/files`, '/v1/library-files']) {
        const res = await postForm(down, x.key, url, [{ name: 'file', filename: 'a.pdf', data: pdf() }]);
        expect(res.status, url).toBe(503);
        expect(res.body).toMatchObject({ code: 'storage_unavailable', retryable: true });
      }
      expect((await x.api.get('/v1/files')).body.pagination.total).toBe(0);
      expect((await logOf(x, j.id)).filter((e) => e.kind === 'file_added')).toEqual([]);
    } finally {
      await down.close();
    }
  });
});

describe('size and links', () => {
  it('streams a body past 200 MB to a 413 File too large, keeping nothing', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const boundary = '----groundworkbig';
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    async function* body() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\n` +
          'Content-Type: application/pdf\r\n\r\n%PDF-1.7\n',
      );
      for (let i = 0; i < 200; i++) yield chunk;
      yield Buffer.from(`\n%%EOF\r\n--${boundary}--\r\n`);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/jobs/${j.id}/files`,
      headers: { 'x-api-key': w.key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Readable.from(body()),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'File too large', message: 'Files may be at most 200 MB' });
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/files`))).data).toEqual([]);
    expect(objectsOf(t, w.firmId, 'files')).toEqual([]);
  }, 60_000);

  it('a signed_url stops working after its hour (403 link_expired); the file stays', async () => {
    const clock = new ManualClock();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-links-'));
    const app = await startApp({ storage: new LocalStorage({ dataDir, clock }) });
    try {
      const x = await app.workspace();
      const j = await job(x);
      const res = await postForm(app, x.key, `/v1/jobs/${j.id}/files`, [
        { name: 'file', filename: 'a.pdf', data: pdf() },
      ]);
      const got = (await ok(x.api.get(`/v1/files/${res.body.data.id}`))).data;
      expect(Date.parse(got.signed_url_expires_at!)).toBe(Math.floor(clock.now() / 1000) * 1000 + 3600_000);
      const fetch = async (url: string) => {
        const u = new URL(url);
        return app.app.inject({ method: 'GET', url: u.pathname + u.search });
      };
      clock.advance(3599_000);
      expect((await fetch(got.signed_url!)).statusCode).toBe(200);
      const download = String((await x.api.get(got.download_url)).headers.location);
      clock.advance(2_000);
      const expired = await fetch(got.signed_url!);
      expect(expired.statusCode).toBe(403);
      expect(expired.json().code).toBe('link_expired');
      // The download link made a moment ago still works: five minutes from when it was made.
      expect((await fetch(download)).statusCode).toBe(200);
      clock.advance(300_000);
      expect((await fetch(download)).statusCode).toBe(403);
      // A fresh read gives a fresh link.
      const again = (await ok(x.api.get(`/v1/files/${res.body.data.id}`))).data;
      expect((await fetch(again.signed_url!)).statusCode).toBe(200);
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** What a service does with a file it made: store it, then record it in its own transaction. */
async function storeServiceFile(ctx: ServiceContext, body: Buffer, filename: string, file: ServiceFile) {
  const stored = await storeFileObject(ctx, body, 'application/pdf', filename);
  const id = await recordStored(ctx.deps.storage, [stored.key], () =>
    inWorkspaceTransaction(ctx, (trx) => recordServiceFileIn(trx, ctx, stored, file)),
  );
  return id;
}

describe('files the service makes (recordServiceFileIn)', () => {
  it('keeps them on the job with their document_type and source, logged like an upload; a refused write keeps no object', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-service-'));
    const storage = new LocalStorage({ dataDir, clock: new ManualClock() });
    const app = await startApp({ storage });
    try {
      const x = await app.workspace();
      const j = await job(x);
      const ctx = {
        database: app.database,
        deps: buildDeps({ storage, dataDir }),
        auth: await actingAs(app.database.db, x.firmId, x.ownerId),
      };
      const body = pdf('Executed proposal');
      const id = await storeServiceFile(ctx, body, 'Proposal 1042 (signed).pdf', {
        jobId: j.id,
        documentType: 'executed_proposal',
        source: 'proposal',
      });
      const file = (await ok(x.api.get(`/v1/files/${id}`))).data;
      expect(file).toMatchObject({
        filename: 'Proposal 1042 (signed).pdf',
        document_type: 'executed_proposal',
        source: 'proposal',
        job_id: j.id,
        size_bytes: body.length,
        uploaded_by: { id: x.ownerId },
      });
      const listed = (await ok(x.api.get(`/v1/jobs/${j.id}/files`))).data;
      expect(listed.map((f: any) => f.id)).toEqual([file.id]);
      const u = new URL(file.signed_url!);
      expect((await app.app.inject({ method: 'GET', url: u.pathname + u.search })).rawPayload.equals(body)).toBe(true);
      expect((await logOf(x, j.id)).some((e) => e.kind === 'file_added' && e.data.file_id === file.id)).toBe(true);
      const stored = fs.readdirSync(path.join(dataDir, 'objects', 'firms', String(x.firmId), 'files'));
      await expect(
        storeServiceFile(ctx, body, 'x.pdf', { jobId: 999999, documentType: null, source: 'job' }),
      ).rejects.toMatchObject({ status: 404 });
      // The refused write's object went again: only the first file's object is stored.
      expect(fs.readdirSync(path.join(dataDir, 'objects', 'firms', String(x.firmId), 'files'))).toEqual(stored);
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
