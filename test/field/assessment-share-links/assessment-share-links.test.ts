// Assessment report links (document 2: POST /v1/site-assessments/{assessment_id}/share-link; the
// list and revoke of docs/api-decisions.md, Assessment and capital plan links): each call makes a
// new link, scoped or not; unknown services are a 400 naming them; another workspace's assessment
// is 404; a revoked link's page is 410 while the others keep working. What the page shows is
// tested in a browser (test/pages/assessment-report.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, logOf, ok, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const SHARE_URL = /^http:\/\/localhost(:\d+)?\/share\/assessments\/[A-Za-z0-9_-]{43}$/;

const serviceNamed = async (w: Workspace, name: string) =>
  (await ok(w.api.get('/v1/assessment-services'))).data.find((s: { name: string }) => s.name === name) as {
    id: number;
    name: string;
  };

async function walked(w: Workspace) {
  const j = await job(w, { address: '12 Main St, Springfield' });
  const a = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id, title: 'Spring walk' }))).data;
  const crack = await serviceNamed(w, 'Crack sealing');
  const striping = await serviceNamed(w, 'Line striping');
  const at = { latitude: 40, longitude: -75, assessment_id: a.id };
  await ok(w.api.post('/v1/assessment-pins', { ...at, service_type_id: crack.id, measurement_value: 120 }));
  await ok(w.api.post('/v1/assessment-pins', { ...at, service_type_id: striping.id, measurement_value: 300 }));
  return { job: j, assessment: a, crack, striping };
}

/** The customer page of a share_url, opened without a key. */
async function page(shareUrl: string) {
  const res = await t.app.inject({ url: new URL(shareUrl).pathname });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}

describe('POST /v1/site-assessments/{id}/share-link', () => {
  it('makes a new link showing every service on each call (201), with or without a body', async () => {
    const w = await t.workspace();
    const { assessment } = await walked(w);
    const res = await w.api.request('POST', `/v1/site-assessments/${assessment.id}/share-link`);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.any(Number),
        assessment_id: assessment.id,
        share_url: expect.stringMatching(SHARE_URL),
        scoped: false,
        service_type_ids: [],
        label: null,
        revoked_at: null,
        created_at: expect.stringMatching(Z_SECONDS),
      },
    });
    const second = await w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, {});
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(res.body.data.id);
    expect(second.body.data.share_url).not.toBe(res.body.data.share_url);
    for (const link of [res.body.data, second.body.data]) {
      const opened = await page(link.share_url);
      expect(opened.status).toBe(200);
      expect(opened.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(opened.body).toContain('Spring walk');
    }
  });

  it('scopes a link to services (each once, ascending) and keeps a trimmed label', async () => {
    const w = await t.workspace();
    const { assessment, crack, striping } = await walked(w);
    const ids = [striping.id, crack.id, striping.id];
    const link = (
      await ok(
        w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, {
          service_type_ids: ids,
          label: '  For the board  ',
        }),
      )
    ).data;
    expect(link).toMatchObject({
      scoped: true,
      service_type_ids: [crack.id, striping.id].sort((x, y) => x - y),
      label: 'For the board',
    });
    // An empty label is none.
    const plain = (await ok(w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, { label: '  ' }))).data;
    expect(plain.label).toBeNull();
  });

  it('refuses services not of this workspace with a 400 naming them, and makes no link', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const { assessment, crack } = await walked(w);
    const foreign = await serviceNamed(other, 'Crack sealing');
    const res = await w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, {
      service_type_ids: [crack.id, foreign.id, 999999],
    });
    expect(res.status).toBe(400);
    const unknown = [foreign.id, 999999].sort((x, y) => x - y);
    expect(res.body).toEqual({
      error: `Unknown assessment services: ${unknown.join(', ')}`,
      code: 'unknown_service',
      field: 'service_type_ids',
      message: `Assessment services ${unknown.join(', ')} are not services of this workspace (GET /v1/assessment-services)`,
      service_type_ids: unknown,
    });
    const one = await w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, { service_type_ids: [999998] });
    expect(one.body.message).toBe(
      'Assessment service 999998 is not a service of this workspace (GET /v1/assessment-services)',
    );
    const list = (await ok(w.api.get(`/v1/site-assessments/${assessment.id}/share-links`))).pagination;
    expect(list.total).toBe(0);
  });

  it('refuses an empty service list, a long label and unknown fields', async () => {
    const w = await t.workspace();
    const { assessment } = await walked(w);
    const path = `/v1/site-assessments/${assessment.id}/share-link`;
    const empty = await w.api.post(path, { service_type_ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'invalid_request', field: 'service_type_ids' });
    const long = await w.api.post(path, { label: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'invalid_request', field: 'label' });
    const stray = await w.api.post(path, { expires_in_days: 7 });
    expect(stray.status).toBe(400);
    expect(stray.body).toMatchObject({ code: 'unknown_fields', fields: ['expires_in_days'] });
    expect((await w.api.post(path, { label: 'x'.repeat(100) })).status).toBe(201);
  });

  it("is 404 for another workspace's assessment and for one that does not exist", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const { assessment } = await walked(w);
    for (const id of [assessment.id, 99999999]) {
      const res = await other.api.post(`/v1/site-assessments/${id}/share-link`, {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Site assessment not found' });
    }
    expect((await ok(w.api.get(`/v1/site-assessments/${assessment.id}/share-links`))).pagination.total).toBe(0);
  });

  it('is 404 for a user who sees only their own jobs, on an assessment of a job not theirs', async () => {
    const w = await t.workspace();
    const { assessment } = await walked(w);
    // A member who sees only their own jobs (a crew login is refused every such write outright).
    const crew = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    for (const [method, path] of [
      ['POST', `/v1/site-assessments/${assessment.id}/share-link`],
      ['GET', `/v1/site-assessments/${assessment.id}/share-links`],
    ] as const) {
      const res = await crew.api.request(method, path, method === 'POST' ? {} : undefined);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Site assessment not found' });
    }
  });

  it("logs the link in the job's activity log, naming the services it shows", async () => {
    const w = await t.workspace();
    const { job: j, assessment, crack } = await walked(w);
    const link = (
      await ok(
        w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, {
          service_type_ids: [crack.id],
          label: 'Sealing only',
        }),
      )
    ).data;
    await ok(w.api.post(`/v1/site-assessments/${assessment.id}/share-links/${link.id}/revoke`, {}));
    const log = await logOf(w, j.id);
    expect(log.map((e) => [e.kind, e.summary])).toEqual(
      expect.arrayContaining([
        ['assessment_report_shared', 'Report link made for assessment "Spring walk" (Crack sealing): Sealing only'],
        ['assessment_report_link_revoked', 'Report link for assessment "Spring walk" revoked: Sealing only'],
      ]),
    );
    const shared = log.find((e) => e.kind === 'assessment_report_shared')!;
    expect(shared.data).toEqual({ assessment_id: assessment.id, link_id: link.id, service_type_ids: [crack.id] });
    expect(shared.user?.id).toBe(w.ownerId);
  });
});

describe('GET /v1/site-assessments/{id}/share-links', () => {
  it('lists the links newest first with their share_url, and pages', async () => {
    const w = await t.workspace();
    const { assessment, crack } = await walked(w);
    const path = `/v1/site-assessments/${assessment.id}/share-link`;
    const first = (await ok(w.api.post(path, { label: 'First' }))).data;
    const second = (await ok(w.api.post(path, { service_type_ids: [crack.id] }))).data;
    const list = await ok(w.api.get(`/v1/site-assessments/${assessment.id}/share-links`));
    expect(list).toEqual({ data: [second, first], pagination: { total: 2, limit: 50, offset: 0 } });
    const paged = await ok(w.api.get(`/v1/site-assessments/${assessment.id}/share-links?limit=1&offset=1`));
    expect(paged).toEqual({ data: [first], pagination: { total: 2, limit: 1, offset: 1 } });
  });

  it("is 404 for another workspace's assessment", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const { assessment } = await walked(w);
    await ok(w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, {}));
    const res = await other.api.get(`/v1/site-assessments/${assessment.id}/share-links`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Site assessment not found' });
  });
});

describe('POST /v1/site-assessments/{id}/share-links/{link_id}/revoke', () => {
  it('turns the link off for good: its page says it was revoked; the other links keep working', async () => {
    const w = await t.workspace();
    const { assessment } = await walked(w);
    const path = `/v1/site-assessments/${assessment.id}`;
    const kept = (await ok(w.api.post(`${path}/share-link`, {}))).data;
    const link = (await ok(w.api.post(`${path}/share-link`, {}))).data;
    expect((await page(link.share_url)).status).toBe(200);

    const res = await w.api.request('POST', `${path}/share-links/${link.id}/revoke`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...link, share_url: null, revoked_at: expect.stringMatching(Z_SECONDS) });
    const gone = await page(link.share_url);
    expect(gone.status).toBe(410);
    expect(gone.body).toContain('revoked by the sender');
    expect(gone.body).not.toContain('Spring walk');
    expect((await page(kept.share_url)).status).toBe(200);

    // Revoking again answers the same link; the list shows it revoked.
    const again = await ok(w.api.post(`${path}/share-links/${link.id}/revoke`, {}));
    expect(again.data).toEqual(res.body.data);
    const listed = (await ok(w.api.get(`${path}/share-links`))).data;
    expect(listed).toEqual([res.body.data, kept]);
  });

  it("is 404 for another workspace's link, a link of another assessment and one that does not exist", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const { assessment } = await walked(w);
    const { assessment: second } = await walked(w);
    const link = (await ok(w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, {}))).data;
    const foreign = await other.api.post(`/v1/site-assessments/${assessment.id}/share-links/${link.id}/revoke`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Site assessment not found' });
    for (const [assessmentId, linkId] of [
      [second.id, link.id],
      [assessment.id, 99999999],
    ]) {
      const res = await w.api.post(`/v1/site-assessments/${assessmentId}/share-links/${linkId}/revoke`, {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Assessment share link not found' });
    }
    expect((await page(link.share_url!)).status).toBe(200);
  });
});

describe('GET /share/assessments/{token}', () => {
  it('is 404 for a token that never was a link, with nothing about any workspace', async () => {
    for (const token of ['A'.repeat(43), 'short', `${'b'.repeat(42)}!`]) {
      const res = await t.app.inject({ url: `/share/assessments/${encodeURIComponent(token)}` });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Link not found');
    }
  });

  it('is 404 once its assessment is gone with its job', async () => {
    const w = await t.workspace();
    const { job: j, assessment } = await walked(w);
    const link = (await ok(w.api.post(`/v1/site-assessments/${assessment.id}/share-link`, {}))).data;
    expect((await w.api.delete(`/v1/jobs/${j.id}`)).status).toBe(204);
    expect((await page(link.share_url!)).status).toBe(404);
  });
});
