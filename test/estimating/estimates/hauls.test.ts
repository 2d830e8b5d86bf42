// Trucking hauls on estimate cost lines (document 3, Cost line: haul, route,
// automatic_driving_time; docs/pricing.md, Trucking hauls): the starter mill-and-overlay line's
// hauls against hand computations, typed drive times and routes, the workspace defaults, and
// automatic driving time against a real local HTTP server speaking Nominatim's /search (jsonv2).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateDriveHours, greatCircleKm } from '#platform/drive-time.ts';
import { httpGeocoder } from '#platform/geocoding.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

const MILL = 'Mill and overlay, 2"';

/** Dollars to integer cents. */
const cents = (dollars: number) => Math.round(dollars * 100);
/** The default 30% markup on a cost in cents, to the cent. */
const markedUp = (costCents: number) => Math.round((costCents * 13) / 10);
const round2 = (n: number) => Math.round(n * 100) / 100;

let jobs = 0;
/** A job at `address` with a draft estimate holding one mill-and-overlay line of `quantity` SY. */
async function millEstimate(ws: Workspace, quantity: number, address = `${++jobs} Elm St`) {
  const job = await ws.api.post('/v1/jobs', { name: `Overlay job ${++jobs}`, address });
  expect(job.status).toBe(201);
  const est = await ws.api.post('/v1/estimates', { job_id: job.body.data.id });
  expect(est.status).toBe(201);
  const services = (await ws.api.get('/v1/catalog/services?limit=200')).body.data;
  const mill = services.find((s: { name: string }) => s.name === MILL);
  const added = await ws.api.post(`/v1/estimates/${est.body.data.id}/line-items`, { service_id: mill!.id, quantity });
  expect(added.status).toBe(201);
  const id = est.body.data.id as number;
  const lineId = added.body.line_item_id as number;
  const read = async () => {
    const res = await ws.api.get(`/v1/estimates/${id}/line-items/${lineId}`);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const line = await read();
  const costLine = (name: string) => line.cost_lines.find((cl: { name: string }) => cl.name === name)!;
  return {
    id,
    lineId,
    jobId: job.body.data.id as number,
    read,
    millings: costLine('Haul millings').id as number,
    asphalt: costLine('Haul asphalt').id as number,
    tack: costLine('Tack coat (SS-1h)').id as number,
    patch: (costLines: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
      ws.api.patch(`/v1/estimates/${id}/line-items/${lineId}`, { ...extra, cost_lines: costLines }),
  };
}
const byId = (line: { cost_lines: any[] }, id: number) => line.cost_lines.find((cl) => cl.id === id);

describe('hauls with typed and default drive times (no geocoder)', () => {
  let t: TestApp;
  let w: Workspace;
  beforeAll(async () => {
    t = await startApp();
    w = await t.workspace();
  });
  afterAll(() => t.close());

  it('the starter mill-and-overlay hauls match a hand computation', async () => {
    const e = await millEstimate(w, 1500);
    const line = await e.read();
    // Millings: 1,500 SY × 2 in × 0.0575 = 172.5 t; ceil(172.5 / 16) = 11 loads; cycle 2 × 0.5 + 0.5 = 1.5 h;
    // 11 × 1.5 = 16.5 truck h × $105 = $1,732.50; × 1.3 = $2,252.25.
    expect(byId(line, e.millings)).toMatchObject({
      type: 'trucking',
      unit: 'hr',
      unit_cost: 105,
      quantity: 16.5,
      cost: 1732.5,
      price: 2252.25,
      automatic_driving_time: false,
      route: null,
      haul: {
        material: 'millings',
        truck_capacity_tons: 16,
        drive_hr: 0.5,
        drive_hr_source: 'default',
        route_km: null,
        load_unload_hr: 0.5,
        tons: 172.5,
        loads: 11,
        cycle_hr: 1.5,
        truck_hours: 16.5,
      },
    });
    // Asphalt: 172.5 × 1.05 = 181.125 t; ceil(181.125 / 16) = 12 loads; 12 × 1.5 = 18 h × $105 = $1,890.00; × 1.3 = $2,457.00.
    expect(byId(line, e.asphalt)).toMatchObject({
      quantity: 18,
      cost: 1890,
      price: 2457,
      haul: {
        material: 'asphalt',
        tons: 181.125,
        loads: 12,
        cycle_hr: 1.5,
        truck_hours: 18,
        drive_hr_source: 'default',
      },
    });
    expect(byId(line, e.asphalt).explain).toContain('12 loads');
  });

  it('haul.drive_hr typed re-prices the haul (drive_hr_source typed)', async () => {
    const e = await millEstimate(w, 1500);
    const res = await e.patch([{ id: e.millings, haul: { drive_hr: 0.75 } }]);
    expect(res.status).toBe(200);
    // cycle 2 × 0.75 + 0.5 = 2 h; 11 loads × 2 = 22 h × $105 = $2,310.00; × 1.3 = $3,003.00.
    const cl = byId(await e.read(), e.millings);
    expect(cl.haul).toMatchObject({
      drive_hr: 0.75,
      drive_hr_source: 'typed',
      loads: 11,
      cycle_hr: 2,
      truck_hours: 22,
    });
    expect(cl).toMatchObject({ quantity: 22, cost: 2310, price: 3003 });
    // The other haul keeps the default.
    expect(byId(await e.read(), e.asphalt).haul).toMatchObject({ drive_hr: 0.5, drive_hr_source: 'default' });

    // Capacity and load/unload time are the line's own too: ceil(172.5 / 20) = 9 loads; cycle 1.5 + 0.25 = 1.75 h; 15.75 h.
    expect((await e.patch([{ id: e.millings, haul: { truck_capacity_tons: 20, load_unload_hr: 0.25 } }])).status).toBe(
      200,
    );
    expect(byId(await e.read(), e.millings).haul).toMatchObject({
      truck_capacity_tons: 20,
      load_unload_hr: 0.25,
      loads: 9,
      cycle_hr: 1.75,
      truck_hours: 15.75,
    });
  });

  it('a three_leg route adds its legs; without legs_hr it is 400', async () => {
    const e = await millEstimate(w, 1500);
    const res = await e.patch([{ id: e.millings, route: { kind: 'three_leg', legs_hr: [0.4, 0.3, 0.5] } }]);
    expect(res.status).toBe(200);
    // cycle 0.4 + 0.3 + 0.5 + 0.5 = 1.7 h; 11 × 1.7 = 18.7 h × $105 = $1,963.50; × 1.3 = $2,552.55.
    const cl = byId(await e.read(), e.millings);
    expect(cl.route).toMatchObject({ kind: 'three_leg', legs_hr: [0.4, 0.3, 0.5] });
    expect(cl.haul).toMatchObject({ cycle_hr: 1.7, truck_hours: 18.7, loads: 11 });
    expect(cl).toMatchObject({ cost: 1963.5, price: 2552.55 });

    const before = await e.read();
    const noLegs = await e.patch([{ id: e.millings, route: { kind: 'three_leg' } }]);
    expect(noLegs.status).toBe(400);
    expect(noLegs.body).toMatchObject({ code: 'invalid_request', field: 'route.legs_hr' });
    const onAsphalt = await e.patch([{ id: e.asphalt, route: { kind: 'three_leg', legs_hr: null } }]);
    expect(onAsphalt.status).toBe(400);
    expect(await e.read()).toEqual(before);

    // route: null goes back to the plant round trip.
    expect((await e.patch([{ id: e.millings, route: null }])).status).toBe(200);
    expect(byId(await e.read(), e.millings)).toMatchObject({ route: null, haul: { cycle_hr: 1.5, truck_hours: 16.5 } });
  });

  it('haul: null turns the cost line into plain truck hours from its formula', async () => {
    const e = await millEstimate(w, 1500);
    const res = await e.patch([{ id: e.millings, haul: null }]);
    expect(res.status).toBe(200);
    const cl = byId(await e.read(), e.millings);
    expect(cl).toMatchObject({ type: 'trucking', haul: null, automatic_driving_time: null, route: null });
    // The formula's 172.5 is now the quantity itself, × $105 = $18,112.50.
    expect(cl.quantity).toBe(172.5);
    expect(cents(cl.cost)).toBe(cents(172.5 * 105));
    expect(cents(cl.price)).toBe(markedUp(cents(cl.cost)));
    // A manual quantity makes it the truck hours the estimator means.
    expect((await e.patch([{ id: e.millings, manual_quantity: 14 }])).status).toBe(200);
    expect(byId(await e.read(), e.millings)).toMatchObject({ quantity: 14, cost: 1470, price: 1911 });
  });

  it('a haul, route or automatic driving time on a non-trucking cost line is 400', async () => {
    const e = await millEstimate(w, 1000);
    const before = await e.read();
    for (const change of [
      { haul: { material: 'asphalt', drive_hr: 1 } },
      { route: { kind: 'three_leg', legs_hr: [1, 1, 1] } },
      { automatic_driving_time: true },
    ]) {
      const res = await e.patch([{ id: e.tack, ...change }]);
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', field: 'cost_lines[0].haul' });
    }
    expect(await e.read()).toEqual(before);
  });

  it('a new trucking cost line with a haul needs haul.material and takes the workspace defaults', async () => {
    const e = await millEstimate(w, 1000);
    const noMaterial = await e.patch([
      {
        type: 'trucking',
        name: 'Haul spoil',
        unit: 'hr',
        unit_cost: 100,
        quantity_formula: '40',
        haul: { drive_hr: 1 },
      },
    ]);
    expect(noMaterial.status).toBe(400);
    expect(noMaterial.body).toMatchObject({ code: 'invalid_request', field: 'haul.material' });
    const res = await e.patch([
      {
        type: 'trucking',
        name: 'Haul spoil',
        unit: 'hr',
        unit_cost: 100,
        quantity_formula: '40',
        haul: { material: 'spoil' },
      },
    ]);
    expect(res.status).toBe(200);
    // 40 t ÷ 16 = 3 loads × 1.5 h = 4.5 h × $100 = $450.00.
    const added = (await e.read()).cost_lines.find((cl: { name: string }) => cl.name === 'Haul spoil');
    expect(added).toMatchObject({
      cost: 450,
      haul: {
        material: 'spoil',
        truck_capacity_tons: 16,
        drive_hr: 0.5,
        drive_hr_source: 'default',
        loads: 3,
        truck_hours: 4.5,
      },
    });
  });

  it('the workspace haul_drive_hr reaches new lines only', async () => {
    const ws = await t.workspace();
    const old = await millEstimate(ws, 1500);
    const set = await t.admin.patch(`/admin/v1/workspaces/${ws.firmId}`, { settings: { haul_drive_hr: 0.75 } });
    expect(set.status).toBe(200);
    // The existing line keeps the 0.5 h it was made with, through later writes and a recalculation.
    expect((await ws.api.patch(`/v1/estimates/${old.id}/line-items/${old.lineId}`, { quantity: 1600 })).status).toBe(
      200,
    );
    expect((await ws.api.post(`/v1/estimates/${old.id}/recalculate`)).status).toBe(200);
    expect(byId(await old.read(), old.millings).haul).toMatchObject({
      drive_hr: 0.5,
      drive_hr_source: 'default',
      cycle_hr: 1.5,
    });

    const fresh = await millEstimate(ws, 1500);
    // cycle 2 × 0.75 + 0.5 = 2 h; 11 loads × 2 = 22 h.
    expect(byId(await fresh.read(), fresh.millings).haul).toMatchObject({
      drive_hr: 0.75,
      drive_hr_source: 'default',
      cycle_hr: 2,
      truck_hours: 22,
    });
  });

  it('automatic driving time on a server without a geocoder is 422 drive_time_unavailable', async () => {
    const e = await millEstimate(w, 1000);
    const before = await e.read();
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, {
      settings: { plant_address: 'Asphalt plant, 100 Industrial Way, Springfield' },
    });
    const res = await e.patch([{ id: e.asphalt, automatic_driving_time: true }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'drive_time_unavailable', cost_line_id: e.asphalt });
    expect(await e.read()).toEqual(before);
  });
});

// ---- automatic driving time against a local Nominatim ----

const PLANT = 'Asphalt plant, 100 Industrial Way, Springfield';
const JOB = '2 Main St, Chatham';
const DUMP = 'Millings recycler, 5 Quarry Rd, Rochester';
const HOME: Record<string, [number, number]> = {
  [PLANT.toLowerCase()]: [39.7817, -89.6501],
  [JOB.toLowerCase()]: [39.6762, -89.7045],
  [DUMP.toLowerCase()]: [39.7495, -89.5318],
};
const MOVED_JOB: [number, number] = [39.48, -89.9];
const point = (address: string) => {
  const [lat, lng] = places[address.toLowerCase()];
  return { lat, lng };
};

let places: Record<string, [number, number]> = { ...HOME };
let failing = false;
let server: http.Server;
let base: string;
const sockets = new Set<Socket>();

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

describe('automatic driving time (local Nominatim)', () => {
  let t: TestApp;
  let w: Workspace;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (failing) return answer(res, 500, { error: 'internal' });
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'jsonv2')
        return answer(res, 400, { error: 'bad request' });
      const place = places[(url.searchParams.get('q') ?? '').toLowerCase()];
      answer(
        res,
        200,
        place
          ? [{ place_id: 1, lat: String(place[0]), lon: String(place[1]), display_name: url.searchParams.get('q') }]
          : [],
      );
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // No cache: the recalculation test moves an address on the server between lookups.
    t = await startApp({ geocoder: httpGeocoder(base, { cacheSize: 0 }) });
    w = await t.workspace();
    const set = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { plant_address: PLANT } });
    expect(set.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('looks up plant → job: drive_hr is estimateDriveHours(plant, job), source automatic, with route_km', async () => {
    const e = await millEstimate(w, 1500, JOB);
    const res = await e.patch([{ id: e.asphalt, automatic_driving_time: true }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cl = byId(await e.read(), e.asphalt);
    const hours = estimateDriveHours(point(PLANT), point(JOB));
    expect(hours).toBeGreaterThan(0.1);
    expect(cl.automatic_driving_time).toBe(true);
    expect(cl.haul).toMatchObject({ drive_hr: hours, drive_hr_source: 'automatic', loads: 12 });
    expect(Math.abs(cl.haul.route_km - greatCircleKm(point(PLANT), point(JOB)))).toBeLessThanOrEqual(0.06);
    // cycle = 2 × drive + 0.5 load/unload; truck hours = 12 loads × cycle.
    expect(cl.haul.cycle_hr).toBeCloseTo(2 * hours + 0.5, 6);
    expect(cl.haul.truck_hours).toBe(round2(12 * (2 * hours + 0.5)));
    expect(cents(cl.cost)).toBe(Math.round(cl.haul.truck_hours * 105 * 100));

    // Turned off, the haul goes back to the workspace default.
    expect((await e.patch([{ id: e.asphalt, automatic_driving_time: false }])).status).toBe(200);
    expect(byId(await e.read(), e.asphalt).haul).toMatchObject({
      drive_hr: 0.5,
      drive_hr_source: 'default',
      route_km: null,
    });
  });

  it('a dump_round_trip with dump_address drives job → dump', async () => {
    const e = await millEstimate(w, 1500, JOB);
    const res = await e.patch([
      { id: e.millings, automatic_driving_time: true, route: { kind: 'dump_round_trip', dump_address: DUMP } },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cl = byId(await e.read(), e.millings);
    const hours = estimateDriveHours(point(JOB), point(DUMP));
    expect(hours).not.toBe(estimateDriveHours(point(PLANT), point(JOB)));
    expect(cl.route).toMatchObject({ kind: 'dump_round_trip', dump_address: DUMP });
    expect(cl.haul).toMatchObject({ drive_hr: hours, drive_hr_source: 'automatic', loads: 11 });
    expect(Math.abs(cl.haul.route_km - greatCircleKm(point(JOB), point(DUMP)))).toBeLessThanOrEqual(0.06);
    expect(cl.haul.truck_hours).toBe(round2(11 * (2 * hours + 0.5)));

    // A three_leg route looked up: plant → job, job → dump, dump → plant.
    const three = await e.patch([
      { id: e.asphalt, automatic_driving_time: true, route: { kind: 'three_leg', dump_address: DUMP } },
    ]);
    expect(three.status, JSON.stringify(three.body)).toBe(200);
    const legs = [
      estimateDriveHours(point(PLANT), point(JOB)),
      estimateDriveHours(point(JOB), point(DUMP)),
      estimateDriveHours(point(DUMP), point(PLANT)),
    ];
    const asphalt = byId(await e.read(), e.asphalt);
    expect(asphalt.route).toMatchObject({ kind: 'three_leg', legs_hr: legs });
    expect(asphalt.haul.drive_hr_source).toBe('automatic');
    expect(asphalt.haul.cycle_hr).toBeCloseTo(legs[0] + legs[1] + legs[2] + 0.5, 6);

    // Without a dump address a looked-up dump trip is 400.
    const noDump = await e.patch([{ id: e.asphalt, automatic_driving_time: true, route: { kind: 'dump_round_trip' } }]);
    expect(noDump.status).toBe(400);
    expect(noDump.body).toMatchObject({ code: 'invalid_request', field: 'route.dump_address' });
  });

  it('an address the geocoder cannot place is 422 address_not_found, nothing saved', async () => {
    const e = await millEstimate(w, 1000, JOB);
    const before = await e.read();
    const res = await e.patch([
      {
        id: e.asphalt,
        automatic_driving_time: true,
        route: { kind: 'plant_round_trip', job_address: '999 Nowhere Rd, Atlantis' },
      },
    ]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'address_not_found',
      address: '999 Nowhere Rd, Atlantis',
      cost_line_id: e.asphalt,
    });
    expect(await e.read()).toEqual(before);
    // The job's own address unknown to the geocoder: the same.
    const lost = await millEstimate(w, 1000, '1 Unmapped Ln');
    const res2 = await lost.patch([{ id: lost.asphalt, automatic_driving_time: true }]);
    expect(res2.status).toBe(422);
    expect(res2.body).toMatchObject({ code: 'address_not_found', address: '1 Unmapped Ln' });
  });

  it('a workspace without a plant address is 422 route_address_missing', async () => {
    const ws = await t.workspace();
    const e = await millEstimate(ws, 1000, JOB);
    const before = await e.read();
    const res = await e.patch([{ id: e.asphalt, automatic_driving_time: true }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'route_address_missing', cost_line_id: e.asphalt });
    expect(await e.read()).toEqual(before);
    // route.plant_address supplies it.
    const ok = await e.patch([
      { id: e.asphalt, automatic_driving_time: true, route: { kind: 'plant_round_trip', plant_address: PLANT } },
    ]);
    expect(ok.status).toBe(200);
    expect(byId(await e.read(), e.asphalt).haul.drive_hr).toBe(estimateDriveHours(point(PLANT), point(JOB)));
  });

  it('a geocoder answering 500 is 502 geocode_failed, nothing saved', async () => {
    const e = await millEstimate(w, 1000, JOB);
    const before = await e.read();
    failing = true;
    try {
      const res = await e.patch([{ id: e.asphalt, automatic_driving_time: true }]);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'geocode_failed', retryable: true, cost_line_id: e.asphalt });
    } finally {
      failing = false;
    }
    expect(await e.read()).toEqual(before);
  });

  it('a lookup failing for a cost line the same call adds names it by its place in the body', async () => {
    const e = await millEstimate(w, 1000, JOB);
    const before = await e.read();
    failing = true;
    try {
      const res = await e.patch([
        { id: e.tack, unit_cost: 4.5 },
        {
          type: 'trucking',
          name: 'Haul spoil',
          unit: 'hr',
          unit_cost: 100,
          quantity_formula: '40',
          haul: { material: 'spoil' },
          automatic_driving_time: true,
        },
      ]);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'geocode_failed', cost_line_id: null, field: 'cost_lines[1]' });
    } finally {
      failing = false;
    }
    expect(await e.read()).toEqual(before);
  });

  it('the drive time is stored; POST /recalculate looks it up again', async () => {
    const e = await millEstimate(w, 1500, JOB);
    expect((await e.patch([{ id: e.asphalt, automatic_driving_time: true }])).status).toBe(200);
    const first = estimateDriveHours(point(PLANT), point(JOB));
    expect(byId(await e.read(), e.asphalt).haul.drive_hr).toBe(first);

    places = { ...HOME, [JOB.toLowerCase()]: MOVED_JOB };
    try {
      const moved = estimateDriveHours(point(PLANT), point(JOB));
      expect(moved).not.toBe(first);
      // Another write prices with the stored time.
      expect((await w.api.patch(`/v1/estimates/${e.id}/line-items/${e.lineId}`, { quantity: 1600 })).status).toBe(200);
      expect(byId(await e.read(), e.asphalt).haul).toMatchObject({ drive_hr: first, drive_hr_source: 'automatic' });
      const res = await w.api.post(`/v1/estimates/${e.id}/recalculate`);
      expect(res.status).toBe(200);
      const cl = byId(await e.read(), e.asphalt);
      expect(cl.haul).toMatchObject({ drive_hr: moved, drive_hr_source: 'automatic' });
      expect(cl.haul.truck_hours).toBe(round2(cl.haul.loads * (2 * moved + 0.5)));
      expect(res.body.data.totals!.subtotal).toBe((await e.read()).price);
    } finally {
      places = { ...HOME };
    }
  });
});
