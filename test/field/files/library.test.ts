// The Company Library (docs/api-decisions.md, Files and the Company Library): folders, library
// uploads, linking library files to jobs (they show in the job's list with attachment), unlinking,
// and a library file deleted leaving every job.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, logOf, ok, Z_SECONDS } from '#test/helpers/records.ts';
import { pdf, postForm, uploadJobFile } from './upload.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const libraryFile = async (w: Workspace, filename: string, fields: Record<string, string> = {}) => {
  const res = await postForm(t, w.key, '/v1/library-files', [
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename, data: pdf(filename) },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

const folder = async (w: Workspace, name: string) =>
  (await ok(w.api.post('/v1/library-folders', { name }), [201])).data;

const storedFiles = (firmId: number) => {
  const dir = path.join(t.dataDir, 'objects', 'firms', String(firmId), 'files');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.startsWith('.')) : [];
};

describe('/v1/library-folders', () => {
  it('creates, lists A to Z with file counts, renames, and refuses a taken name in any case', async () => {
    const w = await t.workspace();
    const safety = await folder(w, 'Safety');
    expect(safety).toEqual({
      id: safety.id,
      name: 'Safety',
      file_count: 0,
      created_at: expect.stringMatching(Z_SECONDS),
      updated_at: expect.stringMatching(Z_SECONDS),
    });
    const specs = await folder(w, '  Product specs ');
    expect(specs.name).toBe('Product specs');
    await libraryFile(w, 'SDS.pdf', { folder_id: String(safety.id) });
    const listed = (await ok(w.api.get('/v1/library-folders'))).data;
    expect(listed.map((f: any) => [f.name, f.file_count])).toEqual([
      ['Product specs', 0],
      ['Safety', 1],
    ]);
    const taken = await w.api.post('/v1/library-folders', { name: 'SAFETY' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      error: 'Library folder already exists',
      code: 'name_taken',
      folder: { id: safety.id, name: 'Safety', file_count: 1 },
    });
    const renamed = (await ok(w.api.patch(`/v1/library-folders/${specs.id}`, { name: 'Specs' }))).data;
    expect(renamed).toMatchObject({ id: specs.id, name: 'Specs', file_count: 0 });
    expect((await w.api.patch(`/v1/library-folders/${specs.id}`, { name: 'safety' })).status).toBe(409);
    // Renaming to its own name in another case is fine.
    expect((await ok(w.api.patch(`/v1/library-folders/${specs.id}`, { name: 'SPECS' }))).data.name).toBe('SPECS');
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'A', color: 'red' }]) {
      expect((await w.api.raw.post('/v1/library-folders', body)).status, JSON.stringify(body)).toBe(400);
    }
    const other = await t.workspace();
    expect((await other.api.get('/v1/library-folders')).body.data).toEqual([]);
    expect((await other.api.patch(`/v1/library-folders/${safety.id}`, { name: 'Mine' })).body).toEqual({
      error: 'Library folder not found',
    });
  });

  it('deletes an empty folder; one holding files is 409 Library folder not empty', async () => {
    const w = await t.workspace();
    const full = await folder(w, 'Warranty');
    const empty = await folder(w, 'Old');
    const f = await libraryFile(w, 'Warranty terms.pdf', { folder_id: String(full.id) });
    const refused = await w.api.delete(`/v1/library-folders/${full.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'Library folder not empty', code: 'folder_not_empty', file_count: 1 });
    expect((await w.api.delete(`/v1/library-folders/${empty.id}`)).status).toBe(204);
    expect((await w.api.delete(`/v1/library-folders/${empty.id}`)).status).toBe(404);
    // Moved to the top level, the folder is empty and goes.
    expect((await ok(w.api.patch(`/v1/files/${f.id}`, { folder_id: null }))).data.folder).toBeNull();
    expect((await w.api.delete(`/v1/library-folders/${full.id}`)).status).toBe(204);
    expect((await ok(w.api.get(`/v1/files/${f.id}`))).data.folder).toBeNull();
  });
});

describe('POST /v1/library-files', () => {
  it('keeps a library file in a folder or at the top level; job-only fields are refused', async () => {
    const w = await t.workspace();
    const safety = await folder(w, 'Safety');
    const f = await libraryFile(w, 'Crew safety checklist.pdf', {
      folder_id: String(safety.id),
      description: 'Read before every job',
    });
    expect(f).toMatchObject({
      source: 'library',
      folder: { id: safety.id, name: 'Safety' },
      job_id: null,
      client_account_id: null,
      description: 'Read before every job',
      audience: 'office',
      customer_visible: false,
      attachment: null,
      uploaded_by: { id: w.ownerId },
    });
    expect((await libraryFile(w, 'Top.pdf')).folder).toBeNull();
    expect((await libraryFile(w, 'Top2.pdf', { folder_id: '' })).folder).toBeNull();
    const other = await t.workspace();
    const otherFolder = await folder(other, 'Theirs');
    for (const [parts, status, error] of [
      [[{ name: 'folder_id', value: String(otherFolder.id) }], 404, 'Library folder not found'],
      [[{ name: 'folder_id', value: 'abc' }], 400, 'folder_id must be a library folder id'],
      [[{ name: 'audience', value: 'field' }], 400, 'audience applies to job files only'],
      [[{ name: 'customer_visible', value: 'false' }], 400, 'customer_visible applies to job files only'],
    ] as const) {
      const res = await postForm(t, w.key, '/v1/library-files', [
        ...parts,
        { name: 'file', filename: 'x.pdf', data: pdf() },
      ]);
      expect(res.status, error).toBe(status);
      expect(res.body.error).toBe(error);
    }
    // A folder named after the file: still 404, and nothing is kept.
    const after = await postForm(t, w.key, '/v1/library-files', [
      { name: 'file', filename: 'x.pdf', data: pdf() },
      { name: 'folder_id', value: String(otherFolder.id) },
    ]);
    expect(after.status).toBe(404);
    expect(storedFiles(w.firmId)).toHaveLength(3);
    expect((await ok(w.api.get('/v1/files?source=library'))).pagination.total).toBe(3);
    expect((await ok(w.api.get(`/v1/files?folder_id=${safety.id}`))).data.map((x: any) => x.id)).toEqual([f.id]);
  });

  it('PATCH folder_id moves a library file between folders', async () => {
    const w = await t.workspace();
    const a = await folder(w, 'A');
    const b = await folder(w, 'B');
    const f = await libraryFile(w, 'Move me.pdf', { folder_id: String(a.id) });
    expect((await ok(w.api.patch(`/v1/files/${f.id}`, { folder_id: b.id }))).data.folder).toEqual({
      id: b.id,
      name: 'B',
    });
    const missing = await w.api.patch(`/v1/files/${f.id}`, { folder_id: 999999 });
    expect(missing).toMatchObject({ status: 404, body: { error: 'Library folder not found' } });
    for (const body of [{ audience: 'field' }, { customer_visible: true }]) {
      expect((await w.api.raw.patch(`/v1/files/${f.id}`, body)).status).toBe(400);
    }
  });
});

describe('library files on jobs', () => {
  it("links a library file to a job: it follows the job's own files with its attachment", async () => {
    const w = await t.workspace();
    const j = await job(w);
    const lib = await libraryFile(w, 'SDS sealer.pdf');
    const older = await libraryFile(w, 'Traffic plan.pdf');
    const own1 = (await uploadJobFile(t, w, j.id, pdf(), 'First.pdf')).body.data;
    const own2 = (await uploadJobFile(t, w, j.id, pdf(), 'Second.pdf')).body.data;
    const first = await w.api.post(`/v1/jobs/${j.id}/library-files`, { file_id: older.id });
    expect(first.status).toBe(201);
    const res = await w.api.post(`/v1/jobs/${j.id}/library-files`, { file_id: lib.id });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.data).toMatchObject({
      id: lib.id,
      source: 'library',
      job_id: null,
      attachment: {
        id: expect.any(Number),
        job_id: j.id,
        attached_by_rule: null,
        created_at: expect.stringMatching(Z_SECONDS),
      },
    });
    // Linking again changes nothing: 200, the same link.
    const again = await w.api.post(`/v1/jobs/${j.id}/library-files`, { file_id: lib.id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ data: res.body.data, created: false });
    const list = (await ok(w.api.get(`/v1/jobs/${j.id}/files`))).data;
    expect(list.map((f: any) => f.id)).toEqual([own2.id, own1.id, lib.id, older.id]);
    expect(list.slice(0, 2).map((f: any) => f.attachment)).toEqual([null, null]);
    // job_id on the workspace list is the job's own files only.
    expect((await ok(w.api.get(`/v1/files?job_id=${j.id}`))).data.map((f: any) => f.id)).toEqual([own2.id, own1.id]);
    const log = await logOf(w, j.id);
    expect(log.filter((e) => e.kind === 'library_file_attached').map((e) => e.data.file_id)).toEqual([
      lib.id,
      older.id,
    ]);
  });

  it('refuses a file that is not in the library, and names what is missing', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const own = (await uploadJobFile(t, w, j.id, pdf(), 'Own.pdf')).body.data;
    const notLibrary = await w.api.post(`/v1/jobs/${j.id}/library-files`, { file_id: own.id });
    expect(notLibrary.status).toBe(400);
    expect(notLibrary.body).toMatchObject({ error: 'file_id must be a Company Library file', field: 'file_id' });
    expect((await w.api.post(`/v1/jobs/${j.id}/library-files`, { file_id: 999999 })).body).toEqual({
      error: 'File not found',
    });
    expect((await w.api.raw.post(`/v1/jobs/${j.id}/library-files`, {})).body.error).toBe('file_id is required');
    expect((await w.api.post('/v1/jobs/999999/library-files', { file_id: own.id })).body.error).toBe('Job not found');
  });

  it('unlinks a library file from one job; the file stays in the library and on other jobs', async () => {
    const w = await t.workspace();
    const j1 = await job(w);
    const j2 = await job(w);
    const lib = await libraryFile(w, 'Shared.pdf');
    for (const j of [j1, j2]) await ok(w.api.post(`/v1/jobs/${j.id}/library-files`, { file_id: lib.id }), [201]);
    expect((await w.api.delete(`/v1/jobs/${j1.id}/library-files/${lib.id}`)).status).toBe(204);
    expect((await ok(w.api.get(`/v1/jobs/${j1.id}/files`))).data).toEqual([]);
    expect((await ok(w.api.get(`/v1/jobs/${j2.id}/files`))).data.map((f: any) => f.id)).toEqual([lib.id]);
    expect((await ok(w.api.get(`/v1/files/${lib.id}`))).data.source).toBe('library');
    const again = await w.api.delete(`/v1/jobs/${j1.id}/library-files/${lib.id}`);
    expect(again).toMatchObject({ status: 404, body: { error: 'File not found on this job' } });
    expect((await logOf(w, j1.id)).some((e) => e.kind === 'library_file_detached')).toBe(true);
  });

  it('a library file deleted leaves every job, and its object goes', async () => {
    const w = await t.workspace();
    const jobs = [await job(w), await job(w), await job(w)];
    const lib = await libraryFile(w, 'Recalled spec.pdf');
    const keep = await libraryFile(w, 'Current spec.pdf');
    for (const j of jobs) {
      await ok(w.api.post(`/v1/jobs/${j.id}/library-files`, { file_id: lib.id }), [201]);
      await ok(w.api.post(`/v1/jobs/${j.id}/library-files`, { file_id: keep.id }), [201]);
    }
    expect(storedFiles(w.firmId)).toHaveLength(2);
    expect((await w.api.delete(`/v1/files/${lib.id}`)).status).toBe(204);
    for (const j of jobs) {
      expect((await ok(w.api.get(`/v1/jobs/${j.id}/files`))).data.map((f: any) => f.id)).toEqual([keep.id]);
    }
    expect(storedFiles(w.firmId)).toHaveLength(1);
    expect((await w.api.post(`/v1/jobs/${jobs[0]!.id}/library-files`, { file_id: lib.id })).status).toBe(404);
  });
});
