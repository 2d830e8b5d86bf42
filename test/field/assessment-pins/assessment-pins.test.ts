// /v1/assessment-pins (document 3, Site assessments and pins): create and its errors, labels,
// measurements, update, delete, list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const AT = { latitude: 39.78, longitude: -89.65 };
const pin = async (w: Workspace, body: Record<string, unknown>) =>
  (await ok(w.api.post('/v1/assessment-pins', { ...AT, ...body }))).data;
const services = async (w: Workspace) =>
  Object.fromEntries((await w.api.get('/v1/assessment-services')).body.data.map((s: any) => [s.name, s]));
const assessments = async (w: Workspace, jobId: number) =>
  (await w.api.get(`/v1/site-assessments?job_id=${jobId}`)).body.data;

describe('POST /v1/assessment-pins', () => {
  it('makes a pin with the defaults and the full shape', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const a = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id }))).data;
    const res = await w.api.post('/v1/assessment-pins', { job_id: j.id, ...AT });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.any(Number),
        job_id: j.id,
        assessment_id: a.id,
        label: 'Pin 1',
        name: null,
        latitude: 39.78,
        longitude: -89.65,
        service_type: null,
        tag: null,
        defect_type: null,
        color: '#808080',
        severity: 'medium',
        size: 'medium',
        notes: null,
        visibility: 'external',
        keep_for_proposal: false,
        measurement: { type: 'none', value: null, unit: null, data: {} },
        ai_severity: null,
        ai_rationale: null,
        photos: [],
        created_by_user_id: w.ownerId,
        created_at: expect.stringMatching(Z_SECONDS),
        updated_at: expect.stringMatching(Z_SECONDS),
      },
    });
    expect((await w.api.get(`/v1/assessment-pins/${res.body.data.id}`)).body).toEqual(res.body);
  });

  it('takes every field: service, tag, defect, severity, size, notes, name, visibility, keep_for_proposal, measurement', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const s = await services(w);
    const tag = (await ok(w.api.post('/v1/photo-tags', { name: 'Trip hazard', color: '#ff0000' }))).data;
    const defects = (await ok(w.api.get('/v1/assessment-defect-types'))).data;
    expect(defects[0]).toEqual({ id: 1, name: 'Alligator cracking', group: 'Asphalt' });
    const p = await pin(w, {
      job_id: j.id,
      service_type_id: s['Concrete repair'].id,
      tag_type_id: tag.id,
      defect_type_id: 8,
      severity: 'high',
      size: 'large',
      notes: ' Broken slab ',
      name: 'Front walk',
      visibility: 'internal',
      keep_for_proposal: true,
      length_ft: 6,
      width_ft: 4,
      depth_in: 4,
      measurement_data: { slabs: 2 },
    });
    expect(p).toMatchObject({
      label: 'Front walk',
      name: 'Front walk',
      service_type: { id: s['Concrete repair'].id, name: 'Concrete repair' },
      tag: { id: tag.id, name: 'Trip hazard' },
      defect_type: { id: 8, name: 'Spalling' },
      color: s['Concrete repair'].color,
      severity: 'high',
      size: 'large',
      notes: 'Broken slab',
      visibility: 'internal',
      keep_for_proposal: true,
      measurement: {
        type: 'volume',
        value: 0.3, // 6 × 4 × 4 / 324 = 0.296…
        unit: 'CY',
        data: { slabs: 2, length_ft: 6, width_ft: 4, depth_in: 4, area_sqft: 24 },
      },
    });
    // A tag's color shows when the pin has no service.
    expect((await pin(w, { job_id: j.id, tag_type_id: tag.id })).color).toBe('#ff0000');
  });

  it('a service pin on a job with no open assessment starts one; a pin without a service stays loose', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const s = await services(w);
    const loose = await pin(w, { job_id: j.id });
    expect(loose.assessment_id).toBeNull();
    expect(await assessments(w, j.id)).toEqual([]);
    const started = await pin(w, { job_id: j.id, service_type_id: s['Sealcoating'].id });
    const [a] = await assessments(w, j.id);
    expect(a).toMatchObject({ status: 'open', scope: 'job', pin_count: 2 });
    expect(started.assessment_id).toBe(a.id);
    // The loose pin joined the new assessment.
    expect((await w.api.get(`/v1/assessment-pins/${loose.id}`)).body.data.assessment_id).toBe(a.id);
    // After completion: a plain pin is loose again, a service pin starts a second assessment.
    await ok(w.api.post(`/v1/site-assessments/${a.id}/complete`));
    expect((await pin(w, { job_id: j.id })).assessment_id).toBeNull();
    const next = await pin(w, { job_id: j.id, service_type_id: s['Sealcoating'].id });
    expect(next.assessment_id).not.toBe(a.id);
    expect((await assessments(w, j.id)).map((x: any) => x.status).sort()).toEqual(['completed', 'open']);
  });

  it('joins the assessment given by assessment_id (job_id optional)', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const a = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id }))).data;
    const p = await pin(w, { assessment_id: a.id });
    expect(p).toMatchObject({ job_id: j.id, assessment_id: a.id });
    expect((await pin(w, { assessment_id: a.id, job_id: j.id })).assessment_id).toBe(a.id);
    const other = await job(w);
    const res = await w.api.post('/v1/assessment-pins', { ...AT, assessment_id: a.id, job_id: other.id });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'assessment_id' });
  });

  it('numbers labels per assessment and service, and keeps numbers when a pin is deleted', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const s = await services(w);
    const crack = s['Crack sealing'].id;
    const labels = [];
    for (const body of [
      { service_type_id: crack },
      {},
      { service_type_id: crack },
      {},
      { service_type_id: crack, name: 'Named' },
    ])
      labels.push((await pin(w, { job_id: j.id, ...body })).label);
    expect(labels).toEqual(['Crack sealing 1', 'Pin 1', 'Crack sealing 2', 'Pin 2', 'Named']);
    const third = await pin(w, { job_id: j.id, service_type_id: crack });
    expect(third.label).toBe('Crack sealing 4');
    // Clearing a name shows its number; deleting one does not renumber the rest.
    const all = (await w.api.get(`/v1/assessment-pins?job_id=${j.id}`)).body.data;
    const named = all.find((p: any) => p.label === 'Named');
    expect((await ok(w.api.patch(`/v1/assessment-pins/${named!.id}`, { name: null }))).data.label).toBe(
      'Crack sealing 3',
    );
    const first = all.find((p: any) => p.label === 'Crack sealing 1');
    await ok(w.api.delete(`/v1/assessment-pins/${first!.id}`), [204]);
    expect((await pin(w, { job_id: j.id, service_type_id: crack })).label).toBe('Crack sealing 5');
    // Changing the service moves the pin to the end of its new group.
    const moved = await ok(w.api.patch(`/v1/assessment-pins/${third.id}`, { service_type_id: null }));
    expect(moved.data.label).toBe('Pin 3');
    // A new assessment numbers from 1 again.
    const [a] = await assessments(w, j.id);
    await ok(w.api.post(`/v1/site-assessments/${a.id}/complete`));
    expect((await pin(w, { job_id: j.id, service_type_id: crack })).label).toBe('Crack sealing 1');
  });

  it('does not change the assessment’s updated_at', async () => {
    const w = await t.workspace();
    const j = await job(w);
    pauseClock();
    try {
      const a = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id }))).data;
      advanceClock(3000);
      await pin(w, { job_id: j.id });
      const after = (await w.api.get(`/v1/site-assessments/${a.id}`)).body.data;
      expect(after.updated_at).toBe(a.updated_at);
      expect(after.pin_count).toBe(1);
    } finally {
      resumeClock();
    }
  });

  it('answers every listed 400', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ job_id: j.id }, { error: 'latitude and longitude are required', field: 'latitude' }],
      [
        { job_id: j.id, latitude: 1 },
        { error: 'latitude and longitude are required', field: 'longitude' },
      ],
      [AT, { error: 'job_id or assessment_id is required', field: 'job_id' }],
      [{ ...AT, job_id: j.id, severity: 'urgent' }, { error: 'severity must be one of: low, medium, high' }],
      [{ ...AT, job_id: j.id, size: 'huge' }, { error: 'size must be one of: small, medium, large' }],
      [{ ...AT, job_id: j.id, visibility: 'public' }, { error: 'visibility must be one of: internal, external' }],
      [
        { ...AT, job_id: j.id, measurement_type: 'area' },
        { error: 'measurement_type must be one of: none, count, sqft, dimensions, volume, lf' },
      ],
      [{ ...AT, job_id: j.id, measurement_unit: 'M2' }, { field: 'measurement_unit' }],
      [{ ...AT, job_id: j.id, measurement_type: 'lf', measurement_unit: 'SF' }, { field: 'measurement_unit' }],
      [{ ...AT, job_id: j.id, name: 'x'.repeat(81) }, { error: 'name must be at most 80 characters' }],
      [{ ...AT, job_id: j.id, latitude: 91 }, { field: 'latitude' }],
      [{ ...AT, job_id: j.id, longitude: -181 }, { field: 'longitude' }],
      [{ ...AT, job_id: j.id, length_ft: -1 }, { field: 'length_ft' }],
      [
        { ...AT, job_id: j.id, color: '#000000' },
        { error: 'Unknown fields: color', code: 'unknown_fields' },
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await w.api.post('/v1/assessment-pins', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject(expected);
    }
    expect((await w.api.get(`/v1/assessment-pins?job_id=${j.id}`)).body.pagination.total).toBe(0);
  });

  it('answers every listed 404 and the 409', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w);
    const theirJob = await job(other);
    const theirAssessment = (await ok(other.api.post('/v1/site-assessments', { job_id: theirJob.id }))).data;
    const theirService = (await services(other))['Sealcoating'];
    const theirTag = (await ok(other.api.post('/v1/photo-tags', { name: 'Theirs' }))).data;
    const cases: [Record<string, unknown>, string][] = [
      [{ job_id: theirJob.id }, 'Job not found'],
      [{ job_id: 987654 }, 'Job not found'],
      [{ assessment_id: theirAssessment.id }, 'Site assessment not found'],
      [{ job_id: j.id, service_type_id: theirService.id }, 'Assessment service not found'],
      [{ job_id: j.id, tag_type_id: theirTag.id }, 'Photo tag not found'],
      [{ job_id: j.id, defect_type_id: 999 }, 'Defect type not found'],
    ];
    for (const [body, error] of cases) {
      const res = await w.api.post('/v1/assessment-pins', { ...AT, ...body });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body).toEqual({ error });
    }
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    expect((await own.api.post('/v1/assessment-pins', { ...AT, job_id: j.id })).body).toEqual({
      error: 'Job not found',
    });
    const a = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id }))).data;
    await ok(w.api.post(`/v1/site-assessments/${a.id}/complete`));
    const res = await w.api.post('/v1/assessment-pins', { ...AT, assessment_id: a.id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'Assessment is completed',
      code: 'assessment_completed',
      message: expect.stringContaining('Reopen'),
    });
    expect((await other.api.get(`/v1/site-assessments/${theirAssessment.id}`)).body.data.pin_count).toBe(0);
  });
});

describe('PATCH /v1/assessment-pins/{id}', () => {
  it('changes the fields sent and recomputes the measurement', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const s = await services(w);
    const p = await pin(w, { job_id: j.id, service_type_id: s['Sealcoating'].id, length_ft: 10, width_ft: 10 });
    expect(p.measurement).toEqual({
      type: 'dimensions',
      value: 100,
      unit: 'SF',
      data: { length_ft: 10, width_ft: 10 },
    });
    const wider = await ok(
      w.api.patch(`/v1/assessment-pins/${p.id}`, { width_ft: 12.5, severity: 'low', latitude: 1.5 }),
    );
    expect(wider.data).toMatchObject({
      severity: 'low',
      latitude: 1.5,
      longitude: AT.longitude,
      measurement: { type: 'dimensions', value: 125, unit: 'SF', data: { length_ft: 10, width_ft: 12.5 } },
    });
    const deeper = await ok(w.api.patch(`/v1/assessment-pins/${p.id}`, { depth_in: 2, measurement_type: 'volume' }));
    expect(deeper.data.measurement).toMatchObject({ type: 'volume', value: 0.77, unit: 'CY' }); // 250 / 324
    const counted = await ok(w.api.patch(`/v1/assessment-pins/${p.id}`, { measurement_type: 'count' }));
    expect(counted.data.measurement).toMatchObject({ type: 'count', value: 1, unit: 'EA' });
    const cleared = await ok(
      w.api.patch(`/v1/assessment-pins/${p.id}`, {
        notes: 'x',
        tag_type_id: null,
        defect_type_id: 3,
        keep_for_proposal: true,
      }),
    );
    expect(cleared.data).toMatchObject({ notes: 'x', tag: null, defect_type: { id: 3 }, keep_for_proposal: true });
    expect(cleared.data.assessment_id).toBe(p.assessment_id);
  });

  it('refuses job_id, assessment_id and unknown fields; 404 for another workspace’s pin and bad references', async () => {
    const w = await t.workspace();
    const p = await pin(w, { job_id: (await job(w)).id });
    for (const body of [{ job_id: 1 }, { assessment_id: 1 }, { colour: 'red' }]) {
      const res = await w.api.raw.patch(`/v1/assessment-pins/${p.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('unknown_fields');
    }
    expect((await w.api.raw.patch(`/v1/assessment-pins/${p.id}`, { severity: 'bad' })).body.error).toBe(
      'severity must be one of: low, medium, high',
    );
    expect((await w.api.patch(`/v1/assessment-pins/${p.id}`, { service_type_id: 987654 })).body).toEqual({
      error: 'Assessment service not found',
    });
    expect((await w.api.patch(`/v1/assessment-pins/${p.id}`, { tag_type_id: 987654 })).body).toEqual({
      error: 'Photo tag not found',
    });
    const other = await t.workspace();
    for (const res of [
      await other.api.get(`/v1/assessment-pins/${p.id}`),
      await other.api.patch(`/v1/assessment-pins/${p.id}`, { severity: 'low' }),
      await other.api.delete(`/v1/assessment-pins/${p.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Pin not found' });
    }
    expect((await w.api.get(`/v1/assessment-pins/${p.id}`)).body.data).toEqual(p);
  });
});

describe('DELETE /v1/assessment-pins/{id}', () => {
  it('deletes the pin (204, then 404) and the assessment counts one fewer', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const a = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id }))).data;
    const p = await pin(w, { job_id: j.id });
    await pin(w, { job_id: j.id });
    expect((await w.api.delete(`/v1/assessment-pins/${p.id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/assessment-pins/${p.id}`)).status).toBe(404);
    expect((await w.api.delete(`/v1/assessment-pins/${p.id}`)).status).toBe(404);
    expect((await w.api.get(`/v1/site-assessments/${a.id}`)).body.data.pin_count).toBe(1);
  });
});

describe('GET /v1/assessment-pins', () => {
  it('filters by job, assessment and service, newest first, and hides jobs the user cannot see', async () => {
    const w = await t.workspace();
    const s = await services(w);
    const j1 = await job(w);
    const j2 = await job(w);
    const p1 = await pin(w, { job_id: j1.id, service_type_id: s['Drainage'].id });
    const p2 = await pin(w, { job_id: j1.id });
    const p3 = await pin(w, { job_id: j2.id });
    const ids = async (q: string) => (await w.api.get(`/v1/assessment-pins${q}`)).body.data.map((p: any) => p.id);
    expect(await ids('')).toEqual([p3.id, p2.id, p1.id]);
    expect(await ids(`?job_id=${j1.id}`)).toEqual([p2.id, p1.id]);
    expect(await ids(`?assessment_id=${p1.assessment_id}`)).toEqual([p2.id, p1.id]);
    expect(await ids(`?service_type_id=${s['Drainage'].id}`)).toEqual([p1.id]);
    const page = (await w.api.get('/v1/assessment-pins?limit=1&offset=1')).body;
    expect(page).toMatchObject({ pagination: { total: 3, limit: 1, offset: 1 } });
    expect(page.data.map((p: any) => p.id)).toEqual([p2.id]);
    expect((await w.api.get('/v1/assessment-pins?limit=201')).status).toBe(400);
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    expect((await own.api.get('/v1/assessment-pins')).body).toEqual({
      data: [],
      pagination: { total: 0, limit: 50, offset: 0 },
    });
    expect((await own.api.get(`/v1/assessment-pins/${p1.id}`)).status).toBe(404);
  });

  it('pages with updated_after, oldest changed first', async () => {
    const w = await t.workspace();
    const j = await job(w);
    pauseClock();
    try {
      const made = [];
      for (let i = 0; i < 5; i++) {
        made.push(await pin(w, { job_id: j.id }));
        if (i % 2 === 0) advanceClock(1000);
      }
      advanceClock(1000);
      await ok(w.api.patch(`/v1/assessment-pins/${made[0].id}`, { notes: 'changed last' }));
      advanceClock(1000);
      const seen: number[] = [];
      let after = '2000-01-01T00:00:00Z';
      for (let guard = 0; guard < 10; guard++) {
        const res = await w.api.get(`/v1/assessment-pins?updated_after=${after}&limit=2`);
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((p: any) => p.id));
        if (res.body.data.length < 2) break;
        after = res.body.data[res.body.data.length - 1].updated_at;
      }
      expect(seen).toEqual([...made.slice(1), made[0]].map((p) => p.id));
    } finally {
      resumeClock();
    }
  });
});
