// Landscape takeoffs over HTTP (document 3, "Landscape takeoffs"; docs/landscape.md): the classes,
// starting aerial takeoffs (and the plan gates), the list and its filters, reading one in each
// unit, items added, listed, changed and deleted with their quantities and history, the cleanup
// lock, permissions and another workspace's records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polygonAreaM2, squareFeet, SQUARE_FEET_PER_ACRE } from '#engines/geometry/index.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { pointAt, squareAt } from './segmenter.ts';

const ORIGIN = { lat: 39.7817, lng: -89.6501 };
let t: TestApp;
let w: Workspace;
let jobId: number;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  jobId = (await job(w.api, { name: 'Maple Court HOA' })).id;
});
afterAll(async () => {
  await t?.close();
});

const newTakeoff = async (body: Record<string, unknown> = {}, api = w.api, onJob = jobId) =>
  (await ok(api.request('POST', `/v1/jobs/${onJob}/landscape-takeoffs`, { type: 'aerial', ...body }))).data;

const lawnSquare = (east: number, north: number, side: number) => ({
  class: 'lawn',
  polygon: squareAt(ORIGIN, east, north, side),
});

describe('GET /v1/landscape/classes', () => {
  it('lists area and object classes with which ones detection finds', async () => {
    const c = (await ok(w.api.request('GET', '/v1/landscape/classes'))).data;
    const lawn = c.areas.find((a: any) => a.id === 'lawn');
    expect(lawn).toMatchObject({ name: 'Lawn', unit: 'sf', detected: true });
    expect(c.areas.find((a: any) => a.id === 'road')).toMatchObject({ detected: false });
    expect(c.objects.find((o: any) => o.id === 'deciduous')).toMatchObject({ tree: true, detected: true });
    expect(c.objects.find((o: any) => o.id === 'shrub')).toMatchObject({ tree: false });
    for (const a of c.areas) expect(a.color).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('starting a landscape takeoff', () => {
  it('aerial: 201 with empty quantities, named Auto Aerial; manual is Manual Aerial', async () => {
    const res = await w.api.request('POST', `/v1/jobs/${jobId}/landscape-takeoffs`, { type: 'aerial' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      object: 'landscape_takeoff',
      name: 'Auto Aerial',
      type: 'aerial',
      mode: 'auto',
      editor: null,
      job_id: jobId,
      unit: 'sf',
      rev: 1,
      item_count: 0,
      ai_detection: { enabled: true, credit_used: false },
      quantities: { areas: [], objects: [], total_area_sqft: 0, total_area: 0, tree_count: 0, object_count: 0 },
    });
    expect(res.body.data.editor_url).toContain(`/landscape-takeoffs/${res.body.data.id}`);
    const manual = await newTakeoff({ manual: true, name: '  Front beds  ' });
    expect(manual).toMatchObject({ name: 'Front beds', mode: 'manual', ai_detection: { enabled: false } });
    expect((await newTakeoff({ manual: true })).name).toBe('Manual Aerial');
  });

  it('refuses a bad type, unknown fields, plan fields on an aerial takeoff and an unknown job', async () => {
    const bad = await w.api.request('POST', `/v1/jobs/${jobId}/landscape-takeoffs`, { type: 'satellite' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('type must be aerial or blueprint');
    const none = await w.api.request('POST', `/v1/jobs/${jobId}/landscape-takeoffs`, {});
    expect(none.status).toBe(400);
    const unknown = await w.api.request('POST', `/v1/jobs/${jobId}/landscape-takeoffs`, {
      type: 'aerial',
      colour: 'x',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('Unknown fields');
    const file = await w.api.request('POST', `/v1/jobs/${jobId}/landscape-takeoffs`, { type: 'aerial', file_id: 3 });
    expect(file.status).toBe(400);
    const nojob = await w.api.request('POST', '/v1/jobs/999999/landscape-takeoffs', { type: 'aerial' });
    expect(nojob.status).toBe(404);
  });

  it('blueprint: Send file_url or file_id; no credit is 402; a url that does not answer is 422 Could not fetch url and costs nothing', async () => {
    const none = await w.api.request('POST', `/v1/jobs/${jobId}/landscape-takeoffs`, { type: 'blueprint' });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('Send file_url or file_id');
    // Nothing listens on port 1: the fetch is refused at once (the harness allows private networks).
    const dead = { type: 'blueprint', file_url: 'http://127.0.0.1:1/plan.pdf' };
    // This workspace has no takeoff credits: refused before the download.
    const broke = await w.api.request('POST', `/v1/jobs/${jobId}/landscape-takeoffs`, dead);
    expect(broke.status).toBe(402);
    expect(broke.body.error).toBe('No takeoff credits remaining');

    const v = await t.workspace({ settings: { takeoff_credits: 1 } });
    const vJob = (await job(v.api, { name: 'Planted entry' })).id;
    const unreachable = await v.api.request('POST', `/v1/jobs/${vJob}/landscape-takeoffs`, dead);
    expect(unreachable.status).toBe(422);
    expect(unreachable.body).toMatchObject({ error: 'Could not fetch url', code: 'url_fetch_failed' });
    expect(unreachable.body.message).toBeTruthy();
    // Refused starts cost nothing and leave nothing behind.
    expect((await ok(t.admin.get(`/admin/v1/workspaces/${v.firmId}`))).data.settings.takeoff_credits).toBe(1);
    expect((await ok(v.api.request('GET', `/v1/landscape-takeoffs?job_id=${vJob}`))).data).toEqual([]);
  });
});

describe('items, quantities and history', () => {
  it('adds areas and objects, counts them per class, answers every unit', async () => {
    const tk = await newTakeoff();
    const add = await w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, {
      items: [
        lawnSquare(0, 0, 30),
        lawnSquare(50, 0, 10),
        { class: 'mulch', polygon: squareAt(ORIGIN, 0, 40, 5), phase: 'Spring' },
        { class: 'deciduous', point: pointAt(ORIGIN, 5, 5) },
        { class: 'shrub', point: pointAt(ORIGIN, 6, 6), phase: null },
      ],
    });
    expect(add.status).toBe(201);
    expect(add.body.data).toHaveLength(5);
    expect(add.body.rev).toBe(2);
    const lawn = add.body.data[0];
    expect(lawn).toMatchObject({
      object: 'landscape_item',
      kind: 'area',
      class: 'lawn',
      label: 'Lawn',
      phase: 'Phase 1',
    });
    expect(lawn.rings[0]).toHaveLength(4);
    // Square feet of the ring on the sphere (engines/geometry), to the cent.
    expect(lawn.area_sqft).toBeCloseTo(squareFeet(polygonAreaM2([squareAt(ORIGIN, 0, 0, 30)])), 2);
    expect(add.body.data[2].phase).toBe('Spring');
    expect(add.body.data[3]).toMatchObject({
      kind: 'object',
      class: 'deciduous',
      tree: true,
      rings: null,
      area_sqft: null,
    });
    expect(add.body.data[4].phase).toBeNull();
    const q = add.body.quantities;
    const lawnTotal = add.body.data[0].area_sqft + add.body.data[1].area_sqft;
    expect(q.areas.map((a: any) => [a.class, a.count])).toEqual([
      ['lawn', 2],
      ['mulch', 1],
    ]);
    expect(q.areas[0].area_sqft).toBeCloseTo(lawnTotal, 2);
    expect(q.total_area_sqft).toBeCloseTo(lawnTotal + add.body.data[2].area_sqft, 2);
    expect(q).toMatchObject({ tree_count: 1, object_count: 2 });
    expect(q.objects).toEqual([
      { class: 'deciduous', label: 'Deciduous tree', count: 1 },
      { class: 'shrub', label: 'Shrub', count: 1 },
    ]);

    const sf = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data;
    expect(sf).toMatchObject({ unit: 'sf', rev: 2, item_count: 5 });
    for (const [unit, per] of [
      ['sy', 1 / 9],
      ['sm', 0.09290304],
      ['acres', 1 / SQUARE_FEET_PER_ACRE],
    ] as const) {
      const got = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}?unit=${unit}`))).data;
      expect(got.unit).toBe(unit);
      // area_sqft is always square feet; area is in the asked unit.
      expect(got.quantities.areas[0].area_sqft).toBe(sf.quantities.areas[0].area_sqft);
      expect(got.quantities.areas[0].area).toBeCloseTo(
        sf.quantities.areas[0].area_sqft * per,
        unit === 'acres' ? 4 : 2,
      );
      expect(got.quantities.total_area).toBeCloseTo(sf.quantities.total_area_sqft * per, unit === 'acres' ? 4 : 2);
    }
    const badUnit = await w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}?unit=hectares`);
    expect(badUnit.status).toBe(400);
  });

  it('lists items with a class filter and paging', async () => {
    const tk = await newTakeoff();
    await ok(
      w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, {
        items: [lawnSquare(0, 0, 10), lawnSquare(20, 0, 10), { class: 'evergreen', point: pointAt(ORIGIN, 1, 1) }],
      }),
    );
    const all = await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/items?limit=2`));
    expect(all.pagination).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(all.data).toHaveLength(2);
    const trees = await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/items?class=evergreen`));
    expect(trees.data.map((i: any) => i.class)).toEqual(['evergreen']);
    expect(trees.data[0].lat).toBeCloseTo(pointAt(ORIGIN, 1, 1)[0], 9);
  });

  it('changes class within a kind and phase; deletes; every change in the history', async () => {
    const tk = await newTakeoff();
    const [area, tree] = (
      await ok(
        w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, {
          items: [lawnSquare(0, 0, 10), { class: 'deciduous', point: pointAt(ORIGIN, 1, 1) }],
        }),
      )
    ).data;
    const moved = await w.api.request('PATCH', `/v1/landscape-takeoffs/${tk.id}/items/${area.id}`, {
      class: 'mulch',
      phase: null,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ id: area.id, class: 'mulch', phase: null, area_sqft: area.area_sqft });
    expect(moved.body.quantities.areas).toEqual([expect.objectContaining({ class: 'mulch', count: 1 })]);
    const cross = await w.api.request('PATCH', `/v1/landscape-takeoffs/${tk.id}/items/${area.id}`, { class: 'shrub' });
    expect(cross.status).toBe(400);
    expect(cross.body.code).toBe('wrong_class_kind');
    const unknown = await w.api.request('PATCH', `/v1/landscape-takeoffs/${tk.id}/items/${tree.id}`, { class: 'oak' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_class');
    expect(
      (await w.api.request('PATCH', `/v1/landscape-takeoffs/${tk.id}/items/${tree.id}`, { class: 'evergreen' })).status,
    ).toBe(200);
    const del = await w.api.request('DELETE', `/v1/landscape-takeoffs/${tk.id}/items/${tree.id}`);
    expect(del.status).toBe(204);
    expect((await w.api.request('DELETE', `/v1/landscape-takeoffs/${tk.id}/items/${tree.id}`)).status).toBe(404);
    const after = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data;
    expect(after).toMatchObject({ rev: 5, item_count: 1, quantities: { tree_count: 0, object_count: 0 } });

    const history = await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/history`));
    expect(history.data.map((h: any) => [h.rev, h.change])).toEqual([
      [5, 'delete'],
      [4, 'update'],
      [3, 'update'],
      [2, 'add'],
    ]);
    // The replaced versions: the tree as an evergreen before its delete, the area as lawn before its move.
    expect(history.data[0].replaced).toEqual([expect.objectContaining({ id: tree.id, class: 'evergreen' })]);
    expect(history.data[2].replaced).toEqual([
      expect.objectContaining({ id: area.id, class: 'lawn', phase: 'Phase 1' }),
    ]);
    expect(history.data[3]).toMatchObject({ replaced: [], added: [area.id, tree.id], user_id: w.ownerId });
  });

  it('refuses a wrong shape for the class, an unknown class, a bad polygon, more than 200, with the index', async () => {
    const tk = await newTakeoff();
    const post = (items: unknown[]) => w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, { items });
    const wrong = await post([lawnSquare(0, 0, 5), { class: 'lawn', point: pointAt(ORIGIN, 0, 0) }]);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'wrong_class_kind', index: 1 });
    const tree = await post([{ class: 'deciduous', polygon: squareAt(ORIGIN, 0, 0, 5) }]);
    expect(tree.body.code).toBe('wrong_class_kind');
    const unknown = await post([{ class: 'fescue', polygon: squareAt(ORIGIN, 0, 0, 5) }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_class');
    const flat = await post([{ class: 'lawn', polygon: [ORIGIN, ORIGIN, ORIGIN].map((o) => [o.lat, o.lng]) }]);
    expect(flat.status).toBe(400);
    const many = await post(Array.from({ length: 201 }, (_, i) => ({ class: 'shrub', point: pointAt(ORIGIN, i, 0) })));
    expect(many.status).toBe(400);
    const bounds = await post([{ class: 'shrub', point: [91, 0] }]);
    expect(bounds.status).toBe(400);
    // Nothing was half-written.
    expect((await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data).toMatchObject({
      rev: 1,
      item_count: 0,
    });
  });

  it('a takeoff sent for cleanup refuses item changes with 403 until done', async () => {
    const tk = await newTakeoff();
    const [item] = (
      await ok(w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, { items: [lawnSquare(0, 0, 5)] }))
    ).data;
    // The cleanup service (the operator's) sends it through the admin API.
    const sent = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/landscape-takeoffs/${tk.id}/cleanup`, {
      sent: true,
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data.sent_for_cleanup).toBe(true);
    const add = await w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, { items: [lawnSquare(9, 9, 5)] });
    expect(add.status).toBe(403);
    expect(add.body).toMatchObject({ error: 'Takeoff sent for cleanup', code: 'takeoff_sent_for_cleanup' });
    expect(
      (await w.api.request('PATCH', `/v1/landscape-takeoffs/${tk.id}/items/${item.id}`, { phase: 'x' })).status,
    ).toBe(403);
    expect((await w.api.request('DELETE', `/v1/landscape-takeoffs/${tk.id}/items/${item.id}`)).status).toBe(403);
    expect((await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data.sent_for_cleanup).toBe(true);
    const other = await t.workspace();
    const elsewhere = `/admin/v1/workspaces/${other.firmId}/landscape-takeoffs/${tk.id}/cleanup`;
    expect((await t.admin.post(elsewhere, { sent: false })).status).toBe(404);
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${w.firmId}/landscape-takeoffs/${tk.id}/cleanup`, { sent: 'no' }))
        .status,
    ).toBe(400);
    await ok(t.admin.post(`/admin/v1/workspaces/${w.firmId}/landscape-takeoffs/${tk.id}/cleanup`, { sent: false }));
    expect((await w.api.request('DELETE', `/v1/landscape-takeoffs/${tk.id}/items/${item.id}`)).status).toBe(204);
  });

  it('concurrent changes: each lands whole or answers 409 Takeoff changed; rev counts the saves', async () => {
    const tk = await newTakeoff();
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, { items: [lawnSquare(i * 20, 0, 5)] }),
      ),
    );
    const saved = replies.filter((r) => r.status === 201).length;
    for (const r of replies.filter((r) => r.status !== 201))
      expect(r.body).toMatchObject({ error: 'Takeoff changed', code: 'takeoff_changed' });
    expect(saved).toBeGreaterThanOrEqual(1);
    const after = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data;
    expect(after).toMatchObject({ rev: 1 + saved, item_count: saved });
  });
});

describe('the list, permissions and other workspaces', () => {
  it('lists takeoffs newest first with job and type filters; rows add mode', async () => {
    const other = (await job(w.api, { name: 'Oak Street' })).id;
    const a = await newTakeoff({}, w.api, other);
    const b = await newTakeoff({ manual: true }, w.api, other);
    const list = await ok(w.api.request('GET', `/v1/landscape-takeoffs?job_id=${other}`));
    expect(list.data.map((r: any) => r.id)).toEqual([b.id, a.id]);
    expect(list.data[0]).toEqual({
      id: b.id,
      name: 'Manual Aerial',
      type: 'aerial',
      mode: 'manual',
      job_id: other,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await ok(w.api.request('GET', `/v1/landscape-takeoffs?job_id=${other}&type=blueprint`))).data).toEqual([]);
    expect((await w.api.request('GET', '/v1/landscape-takeoffs?type=plan')).status).toBe(400);
  });

  it('read-only keys read; writes need measurement write; deletes need delete records', async () => {
    const tk = await newTakeoff();
    const [item] = (
      await ok(w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, { items: [lawnSquare(0, 0, 5)] }))
    ).data;
    const reader = t.as(await t.key(w.firmId, w.ownerId, ['read_measurements']));
    expect((await reader.request('GET', `/v1/landscape-takeoffs/${tk.id}/items`)).status).toBe(200);
    const write = await reader.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, {
      items: [lawnSquare(0, 0, 5)],
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('API key lacks measurement write permission');
    const writer = t.as(await t.key(w.firmId, w.ownerId, ['read_measurements', 'write_measurements']));
    const del = await writer.request('DELETE', `/v1/landscape-takeoffs/${tk.id}/items/${item.id}`);
    expect(del.status).toBe(403);
    expect(del.body.error).toBe('API key lacks delete permission');
    const jobsOnly = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect((await jobsOnly.request('GET', '/v1/landscape/classes')).status).toBe(403);
  });

  it("another workspace's takeoffs, items and runs are 404", async () => {
    const tk = await newTakeoff();
    const [item] = (
      await ok(w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, { items: [lawnSquare(0, 0, 5)] }))
    ).data;
    const other = await t.workspace();
    for (const [method, path, body] of [
      ['GET', `/v1/landscape-takeoffs/${tk.id}`],
      ['GET', `/v1/landscape-takeoffs/${tk.id}/items`],
      ['GET', `/v1/landscape-takeoffs/${tk.id}/history`],
      ['POST', `/v1/landscape-takeoffs/${tk.id}/items`, { items: [lawnSquare(0, 0, 5)] }],
      ['PATCH', `/v1/landscape-takeoffs/${tk.id}/items/${item.id}`, { phase: 'x' }],
      ['DELETE', `/v1/landscape-takeoffs/${tk.id}/items/${item.id}`],
      ['POST', `/v1/landscape-takeoffs/${tk.id}/detect`, { polygon: squareAt(ORIGIN, 0, 0, 50) }],
      ['POST', `/v1/jobs/${jobId}/landscape-takeoffs`, { type: 'aerial' }],
    ] as const) {
      const res = await other.api.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await ok(other.api.request('GET', '/v1/landscape-takeoffs'))).data).toEqual([]);
  });

  it('a job merge moves its takeoffs; a job deleted outright takes them', async () => {
    const keep = (await job(w.api, { name: 'Keep' })).id;
    const away = (await job(w.api, { name: 'Away' })).id;
    const tk = await newTakeoff({}, w.api, away);
    const merged = await w.api.request('POST', `/v1/jobs/${away}/merge`, { into_job_id: keep });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data.job_id).toBe(keep);
    const gone = (await job(w.api, { name: 'Gone' })).id;
    const tk2 = await newTakeoff({}, w.api, gone);
    expect((await w.api.request('DELETE', `/v1/jobs/${gone}`)).status).toBe(204);
    expect((await w.api.request('GET', `/v1/landscape-takeoffs/${tk2.id}`)).status).toBe(404);
  });
});
