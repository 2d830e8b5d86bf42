// Plan (blueprint) takeoffs over HTTP (document 3, "Plan takeoff" and "Landscape takeoffs";
// docs/landscape.md, "Plan takeoffs"): a plan PDF generated with pdfkit (engines/plans'
// synthetic plan: a schedule, callouts and symbols on two sheets, a rotated sheet, a scanned page)
// started from a url and from a job file, stored and read by the worker, its sheets, schedule,
// dots and quantities, the runs, undo, credits and every error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticIrrigation } from '#engines/plans/synthetic-irrigation.ts';
import { encryptedPlan, syntheticPlan, type PlanTruth } from '#engines/plans/synthetic-plan.ts';
import { landscapeRunTask } from '#measurement/index.ts';
import { systemClock } from '#platform/clock.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { pdf, uploadJobFile } from '#test/field/files/upload.ts';
import { planServer, type PlanServer } from './plan-server.ts';

let t: TestApp;
let w: Workspace;
let jobId: number;
let server: PlanServer;
let plan: { bytes: Buffer; truth: PlanTruth };

const setCredits = async (credits: number) =>
  ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { takeoff_credits: credits } }));
const credits = async () =>
  (await ok(t.admin.get(`/admin/v1/workspaces/${w.firmId}`))).data.settings.takeoff_credits as number;

/** Runs the worker until no run is pending. */
async function work(): Promise<void> {
  const task = landscapeRunTask(t.env, { clock: systemClock, leaseMs: 120_000 });
  while ((await task.sweep()) > 0);
}

const start = (body: Record<string, unknown>, onJob = jobId) =>
  w.api.request('POST', `/v1/jobs/${onJob}/landscape-takeoffs`, { type: 'blueprint', ...body });

/** A plan takeoff from `path`, run to completion: the takeoff. */
async function planTakeoff(body: Record<string, unknown> = {}) {
  const run = (await ok(start({ file_url: server.url('/plan.pdf'), ...body }), [202])).data;
  await work();
  const done = (await ok(w.api.request('GET', run.poll_url))).data;
  expect(done.status).toBe('completed');
  return (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${done.result.takeoff_id}`))).data;
}

/** Each code's callout total on the given pages (the truth). */
const calloutTotal = (code: string, pages = [1, 2]) =>
  plan.truth.callouts.filter((c) => c.code === code && pages.includes(c.page)).reduce((s, c) => s + c.count, 0);

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  jobId = (await job(w.api, { name: 'Maple Court HOA' })).id;
  server = await planServer();
  plan = await syntheticPlan(1);
  server.serve('/plan.pdf', plan.bytes);
  await setCredits(50);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('a plan takeoff from a url', () => {
  it('answers 202 with a pending run; the worker stores the sheets, reads the schedule and callouts, and takes one credit', async () => {
    const before = await credits();
    const res = await start({ file_url: server.url('/plan.pdf') });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ object: 'landscape_run', kind: 'plan', status: 'pending', takeoff_id: null });
    expect(res.body.data.poll_url).toBe(`/v1/landscape-runs/${res.body.data.id}`);
    expect(await credits()).toBe(before);
    await work();
    const run = (await ok(w.api.request('GET', res.body.data.poll_url))).data;
    expect(run).toMatchObject({ status: 'completed', credit_used: true });
    expect(run.result).toMatchObject({ pages_stored: 3, scanned_pages: [3], schedule: { status: 'found' } });
    expect(run.result.takeoff).toMatchObject({ id: run.result.takeoff_id, type: 'blueprint' });
    expect(run.takeoff_id).toBe(run.result.takeoff_id);
    expect(await credits()).toBe(before - 1);

    const tk = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${run.takeoff_id}`))).data;
    expect(tk).toMatchObject({
      type: 'blueprint',
      editor: 'plan',
      mode: null,
      name: 'Maple Court HOA plans',
      page_count: 3,
      pages: [1, 2, 3],
      rev: 1,
      ai_detection: { credit_used: true },
    });
    expect(tk.schedule.status).toBe('found');
    expect(tk.schedule.page).toBe(1);
    expect(tk.schedule.rows.map((r: any) => r.code)).toEqual(plan.truth.rows.map((r) => r.code));
    expect(tk.schedule.rows_ignored).toHaveLength(plan.truth.rowsIgnored);
    // Every plant's quantity is what its callouts state (the scanned sheet has none to read).
    for (const row of plan.truth.rows) {
      const p = tk.quantities.plants.find((x: any) => x.code === row.code);
      expect(p).toMatchObject({ name: row.botanical, common_name: row.common, kind: 'plant', unit: 'EA' });
      const stated = calloutTotal(row.code);
      if (stated > 0) expect(p).toMatchObject({ quantity: stated, quantity_source: 'callouts', dot_count: 0 });
      else expect(p.quantity_source).not.toBe('callouts');
    }
    expect(tk.quantities.plant_total).toBe(tk.quantities.plants.reduce((s: number, p: any) => s + p.quantity, 0));
    expect(tk.quantities.irrigation).toEqual({ heads_and_valves: [], pipes: [], zones: [] });
    const list = (await ok(w.api.request('GET', `/v1/landscape-takeoffs?job_id=${jobId}&type=blueprint`))).data;
    expect(list[0]).toMatchObject({ id: tk.id, type: 'blueprint', editor: 'plan' });
    expect(list[0].mode).toBeUndefined();
  });
});

describe('sheets, dots and runs', () => {
  let tk: any;
  beforeAll(async () => {
    tk = await planTakeoff({ name: 'Entry planting' });
  });

  const get = async (path: string) => (await ok(w.api.request('GET', path))).data;
  const takeoff = () => get(`/v1/landscape-takeoffs/${tk.id}`);
  const plantOf = async (code: string) => (await takeoff()).quantities.plants.find((p: any) => p.code === code);
  const runOf = async (path: string, body: Record<string, unknown> = {}) => {
    const run = (await ok(w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/${path}`, body), [202])).data;
    await work();
    return get(run.poll_url);
  };
  const dots = async (query = '') => {
    const out: any[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await ok(
        w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/items?limit=200&offset=${offset}${query}`),
      );
      out.push(...page.data);
      if (out.length >= page.pagination.total) return out;
    }
  };

  it('serves each sheet as a PNG at 144 dpi, the rotated one upright; 400 past the page count', async () => {
    for (const page of [1, 2, 3]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/landscape-takeoffs/${tk.id}/sheets/${page}/image`,
        headers: { 'x-api-key': w.key },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const png = res.rawPayload;
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      // The IHDR chunk: width and height, the sheet as a reader sees it (tabloid landscape, 144 dpi).
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2448, 1584]);
    }
    const past = await w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/sheets/4/image`);
    expect(past.status).toBe(400);
    expect(past.body.error).toBe('Page 4 is not in this PDF');
  });

  it('lists callout dots where the callouts are, with their plant and the count they state', async () => {
    const all = await dots();
    expect(all.every((d) => d.object === 'landscape_dot' && d.kind === 'callout')).toBe(true);
    expect(all).toHaveLength(plan.truth.callouts.length);
    for (const c of plan.truth.callouts) {
      const d = all.find((x) => x.page === c.page && Math.abs(x.x - c.x) < 6 && Math.abs(x.y - c.y) < 6);
      expect(d, `${c.text} on page ${c.page}`).toMatchObject({
        callout_quantity: c.count,
        quantity: null,
        source: 'detected',
      });
      expect(d.plant_name).toBe(plan.truth.rows.find((r) => r.code === c.code)!.botanical);
    }
    const ac = await plantOf('AC');
    const onlyAc = await dots(`&plant_id=${ac.id}`);
    expect(onlyAc.length).toBeGreaterThan(0);
    expect(onlyAc.every((d) => d.plant_id === ac.id)).toBe(true);
    expect((await dots('&page=2')).every((d) => d.page === 2)).toBe(true);
    expect(await dots('&kind=plant')).toEqual([]);
    const wrong = await w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/items?class=lawn`);
    expect(wrong.status).toBe(400);
  });

  it('PATCH quantity and plant_id: the totals follow; an empty PATCH saves nothing; aerial fields and unknown plants are 400', async () => {
    const ac = await plantOf('AC');
    const qv = await plantOf('QV');
    const [dot] = await dots(`&plant_id=${ac.id}`);
    const path = `/v1/landscape-takeoffs/${tk.id}/items/${dot.id}`;
    const typed = await ok(w.api.request('PATCH', path, { quantity: dot.callout_quantity + 4 }));
    expect(typed.data.quantity).toBe(dot.callout_quantity + 4);
    expect(typed.quantities.plants.find((p: any) => p.code === 'AC').quantity).toBe(ac.quantity + 4);
    const rev = typed.rev;
    const empty = await ok(w.api.request('PATCH', path, {}));
    expect(empty.rev).toBe(rev);
    const moved = await ok(w.api.request('PATCH', path, { plant_id: qv.id, quantity: null }));
    expect(moved.data).toMatchObject({ plant_id: qv.id, plant_name: qv.name, quantity: null });
    const q = moved.quantities.plants;
    expect(q.find((p: any) => p.code === 'AC').quantity).toBe(ac.quantity - dot.callout_quantity);
    expect(q.find((p: any) => p.code === 'QV').quantity).toBe(qv.quantity + dot.callout_quantity);
    await ok(w.api.request('PATCH', path, { plant_id: ac.id }));
    expect((await plantOf('AC')).quantity).toBe(ac.quantity);

    for (const body of [{ class: 'lawn' }, { phase: 'Phase 2' }, { plant_id: 999999 }, { quantity: -1 }]) {
      const res = await w.api.request('PATCH', path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await w.api.request('PATCH', path, { plant_id: 999999 })).body.error).toBe('Unknown plant');
    const add = await w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/items`, {
      items: [{ class: 'lawn', point: [1, 1] }],
    });
    expect(add.status).toBe(422);
    expect(add.body.error).toBe('Plant dots on plan takeoffs are placed only in the takeoff editor');
    const detect = await w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/detect`, {
      bounds: { north: 1, south: 0, east: 1, west: 0 },
    });
    expect(detect.status).toBe(422);
    expect(detect.body.code).toBe('aerial_only');
  });

  it('find-plants puts a dot on every symbol of each plant, vector sheets and the scan alike; quantities stay with the callouts', async () => {
    const run = await runOf('find-plants');
    expect(run).toMatchObject({ status: 'completed', kind: 'find_plants', credit_used: false });
    expect(run.result.skipped).toEqual([]);
    // How each sheet was read: the drawing on the vector sheets, pixels on the scan, which says so.
    const methods = run.result.plants[0].methods;
    expect(methods.map((m: any) => [m.page, m.method])).toEqual([
      [1, 'vector'],
      [2, 'vector'],
      [3, 'raster'],
    ]);
    expect(methods[2].note).toMatch(/scan/i);
    const symbols = [...plan.truth.symbols, ...plan.truth.scannedSymbols];
    const found = await dots('&kind=plant');
    expect(found).toHaveLength(symbols.length);
    for (const s of symbols) {
      const hit = found.some((d) => d.page === s.page && Math.abs(d.x - s.x) <= 3 && Math.abs(d.y - s.y) <= 3);
      expect(hit, `${s.code} at ${s.x},${s.y} on page ${s.page}`).toBe(true);
    }
    for (const row of plan.truth.rows) {
      const p = await plantOf(row.code);
      expect(p.dot_count).toBe(symbols.filter((s) => s.code === row.code).length);
      if (calloutTotal(row.code) > 0) expect(p.quantity_source).toBe('callouts');
      else expect(p).toMatchObject({ quantity_source: 'dots', quantity: p.dot_count });
    }
    // Run again: the model's dots are replaced, not doubled.
    await runOf('find-plants');
    expect(await dots('&kind=plant')).toHaveLength(symbols.length);
  });

  it('group-plants joins a plant’s nearby dots into one that counts for all; undo puts them back under their ids', async () => {
    const before = await dots('&kind=plant');
    const sum = (list: any[]) => list.reduce((s, d) => s + (d.quantity ?? 1), 0);
    const run = await runOf('group-plants', { within_px: 120 });
    expect(run.result.groups).toBeGreaterThan(0);
    const after = await dots('&kind=plant');
    expect(after.length).toBe(before.length - run.result.dots_grouped + run.result.groups);
    expect(sum(after)).toBe(before.length);
    for (const row of plan.truth.rows) {
      const mine = (l: any[]) => l.filter((d) => d.plant_name === row.botanical);
      expect(sum(mine(after))).toBe(mine(before).length);
    }
    const undone = (await ok(w.api.request('POST', `/v1/landscape-runs/${run.id}/undo`), [200])).data;
    expect(undone.status).toBe('undone');
    const back = await dots('&kind=plant');
    expect(back.map((d) => [d.id, d.x, d.y, d.quantity])).toEqual(before.map((d) => [d.id, d.x, d.y, d.quantity]));
  });

  it('advanced-run reads callouts and symbols again in one run; pages limit it', async () => {
    const run = await runOf('advanced-run', { pages: [1] });
    expect(run.result.scanned_pages).toEqual([]);
    const onOne = await dots('&page=1');
    expect(onOne.filter((d) => d.kind === 'plant')).toHaveLength(plan.truth.symbols.filter((s) => s.page === 1).length);
    expect(onOne.filter((d) => d.kind === 'callout')).toHaveLength(
      plan.truth.callouts.filter((c) => c.page === 1).length,
    );
    expect(await dots('&page=3&kind=plant')).toHaveLength(plan.truth.scannedSymbols.length);
    const bad = await w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/advanced-run`, { pages: [7] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Page 7 is not in this PDF');
    const history = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/history`))).data;
    expect(history[0]).toMatchObject({ change: 'plan_run', run_id: run.id });
  });
});

describe('the plant schedule placed by hand', () => {
  it('PUT …/schedule reads the table in the box: plants kept by code, callouts read again; an empty box finds nothing', async () => {
    const tk = await planTakeoff({ pages: [1, 2] });
    expect(tk.pages).toEqual([1, 2]);
    const box = tk.schedule.box;
    const placed = (
      await ok(
        w.api.request('PUT', `/v1/landscape-takeoffs/${tk.id}/schedule`, {
          page: 1,
          box: { x: box.x - 4, y: box.y - 4, width: box.width + 8, height: box.height + 8 },
        }),
      )
    ).data;
    expect(placed.schedule).toMatchObject({ status: 'placed', page: 1 });
    expect(placed.schedule.rows.map((r: any) => r.code)).toEqual(plan.truth.rows.map((r) => r.code));
    expect(placed.quantities.plants.map((p: any) => p.id)).toEqual(tk.quantities.plants.map((p: any) => p.id));
    expect(placed.quantities.plants.map((p: any) => p.quantity)).toEqual(
      tk.quantities.plants.map((p: any) => p.quantity),
    );
    expect(placed.rev).toBe(tk.rev + 1);

    // A box with no table in it: no plants, so no callouts and no quantities.
    const empty = (
      await ok(
        w.api.request('PUT', `/v1/landscape-takeoffs/${tk.id}/schedule`, {
          page: 2,
          box: { x: 10, y: 10, width: 40, height: 40 },
        }),
      )
    ).data;
    expect(empty.schedule).toMatchObject({ status: 'not_found', rows: [] });
    expect(empty.quantities).toMatchObject({ plants: [], plant_total: 0 });
    expect((await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/items`))).data).toEqual([]);

    const past = await w.api.request('PUT', `/v1/landscape-takeoffs/${tk.id}/schedule`, { page: 9, box });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ error: 'Page 9 is not in this PDF', field: 'page' });
    const notTaken = await w.api.request('PUT', `/v1/landscape-takeoffs/${tk.id}/schedule`, { page: 3, box });
    expect(notTaken.status).toBe(404);
    expect(notTaken.body.code).toBe('sheet_not_found');
    expect((await w.api.request('PUT', `/v1/landscape-takeoffs/${tk.id}/schedule`, { page: 1 })).status).toBe(400);
  });
});

describe('irrigation', () => {
  it('reads heads, valves, pipes and zones; apply false writes nothing, apply true writes them, undo puts the old back', async () => {
    const sheet = await syntheticIrrigation(2);
    server.serve('/irrigation.pdf', sheet.bytes);
    const tk = await planTakeoff({ file_url: server.url('/irrigation.pdf') });
    const path = `/v1/landscape-takeoffs/${tk.id}/irrigation`;
    const look = (await ok(w.api.request('POST', path, {}), [202])).data;
    await work();
    const looked = (await ok(w.api.request('GET', look.poll_url))).data;
    expect(looked.result.applied).toBe(false);
    const hv = looked.result.irrigation.heads_and_valves;
    const count = (kind: string, word: RegExp) =>
      hv.filter((h: any) => h.kind === kind && word.test(h.name)).reduce((s: number, h: any) => s + h.quantity, 0);
    expect(count('head', /spray/i)).toBe(sheet.truth.sprays);
    expect(count('head', /rotor/i)).toBe(sheet.truth.rotors);
    expect(count('valve', /valve/i)).toBe(sheet.truth.valves);
    expect(looked.result.irrigation.zones).toHaveLength(sheet.truth.zones.length);
    expect(
      (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data.quantities.irrigation.zones,
    ).toEqual([]);

    const apply = (await ok(w.api.request('POST', path, { apply: true }), [202])).data;
    await work();
    const applied = (await ok(w.api.request('GET', apply.poll_url))).data;
    expect(applied.result).toMatchObject({ applied: true, previous_irrigation: null });
    const irrigation = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data.quantities.irrigation;
    expect(irrigation).toEqual(applied.result.irrigation);
    for (const z of sheet.truth.zones) {
      const got = irrigation.zones.find((x: any) => x.zone === z.zone);
      expect(got).toMatchObject({ valve_size: z.valve_size, gpm: z.gpm, heads: z.heads });
      expect(got.lateral_lf).toBeCloseTo(z.lateral_lf, 0);
    }
    const lateral = irrigation.pipes.find((p: any) => /lateral/i.test(p.name));
    expect(lateral.linear_feet).toBeCloseTo(sheet.truth.lateralFt, 0);
    await ok(w.api.request('POST', `/v1/landscape-runs/${apply.id}/undo`));
    expect((await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data.quantities.irrigation).toEqual({
      heads_and_valves: [],
      pipes: [],
      zones: [],
    });
  });
});

describe('starting a plan takeoff: files, pages and refusals', () => {
  it('from a PDF in the job’s files, only the pages asked for', async () => {
    const up = await uploadJobFile(t, w, jobId, plan.bytes, 'L-1 planting.pdf');
    expect(up.status).toBe(201);
    const run = (await ok(start({ file_id: up.body.data.id, pages: [2], name: 'Sheet L-2' }), [202])).data;
    expect(run.request.source).toMatchObject({ file_id: up.body.data.id, file_url: null, pages: [2] });
    await work();
    const done = (await ok(w.api.request('GET', run.poll_url))).data;
    const tk = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${done.result.takeoff_id}`))).data;
    expect(tk).toMatchObject({ name: 'Sheet L-2', page_count: 3, pages: [2] });
    // The schedule is on sheet 1, which was not taken off.
    expect(tk.schedule.status).toBe('not_found');
    const one = await w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/sheets/1/image`);
    expect(one.status).toBe(404);
    expect(one.body.code).toBe('sheet_not_found');
    // A file that is not a PDF, and another job's file.
    const txt = await uploadJobFile(t, w, jobId, Buffer.from('just words'), 'notes.txt');
    const notPdf = await start({ file_id: txt.body.data.id });
    expect(notPdf.status).toBe(422);
    expect(notPdf.body.error).toBe('Not a readable PDF');
    const other = (await job(w.api, { name: 'Elsewhere' })).id;
    expect((await start({ file_id: up.body.data.id }, other)).status).toBe(404);
  });

  it('refuses what it cannot read before anything is stored or charged', async () => {
    const before = await credits();
    server.serve('/junk.pdf', Buffer.from('<html>not a plan</html>'));
    server.serve('/locked.pdf', await encryptedPlan());
    server.serve('/tiny.pdf', pdf());
    // Announces more than it sends, so the connection is closed after it.
    server.serve('/huge.pdf', Buffer.from('%PDF-1.4'), {
      'content-length': String(101 * 1024 * 1024),
      connection: 'close',
    });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ file_url: server.url('/junk.pdf') }, 422, 'Not a readable PDF'],
      [{ file_url: server.url('/locked.pdf') }, 422, 'Not a readable PDF'],
      [{ file_url: server.url('/missing.pdf') }, 422, 'Could not fetch url'],
      [{ file_url: server.url('/plan.pdf'), pages: [2, 5] }, 400, 'Page 5 is not in this PDF'],
      [{ file_url: server.url('/tiny.pdf'), pages: [2] }, 400, 'Page 2 is not in this PDF'],
      [{}, 400, 'Send file_url or file_id'],
      [{ file_url: server.url('/plan.pdf'), file_id: 1 }, 400, 'Send file_url or file_id, not both'],
      [{ file_url: server.url('/plan.pdf'), manual: true }, 400, 'manual is for aerial takeoffs'],
    ];
    for (const [body, status, error] of cases) {
      const res = await start(body);
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([status, error]);
    }
    // The announced size is refused before the body is read.
    const huge = await start({ file_url: server.url('/huge.pdf') });
    expect([huge.status, huge.body.error]).toEqual([422, 'PDF too large']);
    // Unannounced, it is counted as it arrives and cut off past 100 MB.
    const big = Buffer.alloc(100 * 1024 * 1024 + 1);
    big.write('%PDF-1.4\n');
    server.serve('/unannounced.pdf', big, { 'transfer-encoding': 'chunked' });
    const unannounced = await start({ file_url: server.url('/unannounced.pdf') });
    expect([unannounced.status, unannounced.body.error], JSON.stringify(unannounced.body)).toEqual([
      422,
      'PDF too large',
    ]);
    const locked = await start({ file_url: server.url('/locked.pdf') });
    expect(locked.body, JSON.stringify(locked.body)).toMatchObject({ message: 'The PDF needs a password to open' });
    expect(await credits()).toBe(before);
  });

  it('with no credit left: 402 before the download; a run that finds none left fails, costs nothing and leaves no takeoff; the landscape edition’s are free', async () => {
    await setCredits(0);
    const none = await start({ file_url: server.url('/plan.pdf') });
    expect([none.status, none.body.error]).toEqual([402, 'No takeoff credits remaining']);
    await setCredits(1);
    const first = (await ok(start({ file_url: server.url('/plan.pdf') }), [202])).data;
    const second = (await ok(start({ file_url: server.url('/plan.pdf') }), [202])).data;
    await work();
    const a = (await ok(w.api.request('GET', first.poll_url))).data;
    const b = (await ok(w.api.request('GET', second.poll_url))).data;
    expect(a.status).toBe('completed');
    expect(b).toMatchObject({ status: 'failed', takeoff_id: null, credit_used: false, result: null });
    expect(b.failure.message).toBe('No takeoff credits remaining');
    expect(await credits()).toBe(0);
    // The landscape edition's plan takeoffs are free: no credit needed or taken.
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { landscape_edition: true } }));
    const free = (await ok(start({ file_url: server.url('/plan.pdf'), pages: [1] }), [202])).data;
    await work();
    const freeRun = (await ok(w.api.request('GET', free.poll_url))).data;
    expect(freeRun).toMatchObject({ status: 'completed', credit_used: false });
    expect(freeRun.result.takeoff.ai_detection.credit_used).toBe(false);
    expect(await credits()).toBe(0);
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { landscape_edition: false } }));
    await setCredits(50);
  });

  it('plan runs are for plan takeoffs; another workspace’s plan is 404; unknown plants are 400', async () => {
    const aerial = (await ok(w.api.request('POST', `/v1/jobs/${jobId}/landscape-takeoffs`, { type: 'aerial' }))).data;
    for (const path of ['read-callouts', 'find-plants', 'group-plants', 'advanced-run', 'irrigation']) {
      const res = await w.api.request('POST', `/v1/landscape-takeoffs/${aerial.id}/${path}`, {});
      expect([res.status, res.body.code], path).toEqual([422, 'not_a_plan_takeoff']);
    }
    expect((await w.api.request('GET', `/v1/landscape-takeoffs/${aerial.id}/sheets/1/image`)).status).toBe(422);
    const tk = await planTakeoff({ pages: [1] });
    const other = await t.workspace();
    expect((await other.api.request('GET', `/v1/landscape-takeoffs/${tk.id}/sheets/1/image`)).status).toBe(404);
    expect((await other.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/find-plants`, {})).status).toBe(404);
    const unknownPlant = await w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/find-plants`, {
      plant_ids: [999999],
    });
    expect([unknownPlant.status, unknownPlant.body.field]).toEqual([400, 'plant_ids']);
  });
});

describe('deleting the job', () => {
  it('takes its plan takeoffs and their stored PDF and sheet images with it', async () => {
    const gone = (await job(w.api, { name: 'Cancelled bid' })).id;
    const run = (await ok(start({ file_url: server.url('/plan.pdf'), pages: [1, 3] }, gone), [202])).data;
    await work();
    const takeoffId = (await ok(w.api.request('GET', run.poll_url))).data.result.takeoff_id;
    const { db } = t.env.database;
    const sheets = await db
      .selectFrom('landscape_sheets')
      .select('image_key')
      .where('takeoff_id', '=', takeoffId)
      .execute();
    const { plan_key } = await db
      .selectFrom('landscape_takeoffs')
      .select('plan_key')
      .where('id', '=', takeoffId)
      .executeTakeFirstOrThrow();
    const keys = [plan_key!, ...sheets.map((s) => s.image_key)];
    expect(keys).toHaveLength(3);
    for (const key of keys) await t.env.deps.storage.get(key).then((s) => s.destroy());
    expect((await w.api.request('DELETE', `/v1/jobs/${gone}`)).status).toBe(204);
    expect((await w.api.request('GET', `/v1/landscape-takeoffs/${takeoffId}`)).status).toBe(404);
    for (const key of keys) await expect(t.env.deps.storage.get(key)).rejects.toThrow();
  });
});
