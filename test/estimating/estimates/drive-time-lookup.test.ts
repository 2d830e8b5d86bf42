// Automatic driving time is looked up outside the write's transaction (GUIDE: outside calls never
// run under the workspace lock). A real local Nominatim holds its answers until the test lets them
// go, so the test sees, by the order promises settle, that other writes go through while a lookup
// is pending: another workspace's (on SQLite one slow lookup held the whole database) and the same
// workspace's (on PostgreSQL it held the workspace's row lock). It also changes the job's address
// while the lookup is pending: the write runs again and looks the new address up.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateDriveHours } from '#platform/drive-time.ts';
import { httpGeocoder } from '#platform/geocoding.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

const PLANT = 'Asphalt plant, 100 Industrial Way, Springfield';
const PLACES: Record<string, [number, number]> = {
  [PLANT]: [39.7817, -89.6501],
  '2 Main St, Chatham': [39.6762, -89.7045],
  '8 Oak Ave, Petersburg': [40.0112, -89.8487],
  '5 Lake Rd, Auburn': [39.5917, -89.7465],
};
const [, JOB, MOVED, MOVED_AGAIN] = Object.keys(PLACES) as [string, string, string, string];
const point = (address: string) => ({ lat: PLACES[address]![0], lng: PLACES[address]![1] });

// ---- the local geocoder: every answer waits for the gate while `holding` ----

let server: http.Server;
const sockets = new Set<Socket>();
const asked: string[] = [];
const arrivalWaiters: { address: string; resolve: () => void }[] = [];
let holding = false;
let openGate: () => void = () => {};
let gate: Promise<void> = Promise.resolve();

function hold(): void {
  holding = true;
  gate = new Promise((resolve) => {
    openGate = resolve;
  });
}
function letGo(): void {
  holding = false;
  openGate();
}
/** Settles once the geocoder has been asked for `address` (at or after the call). */
function askedFor(address: string, since = 0): Promise<void> {
  if (asked.slice(since).includes(address)) return Promise.resolve();
  return new Promise((resolve) => arrivalWaiters.push({ address, resolve }));
}

let t: TestApp;
let w: Workspace;
let other: Workspace;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
    asked.push(q);
    for (const waiter of arrivalWaiters.filter((x) => x.address === q)) waiter.resolve();
    if (holding) await gate;
    const place = PLACES[q];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(place ? [{ lat: String(place[0]), lon: String(place[1]), display_name: q }] : []));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // No cache, so every lookup reaches the server; the timeout only bounds a broken run.
  t = await startApp({ geocoder: httpGeocoder(base, { cacheSize: 0, timeoutMs: 8000 }) });
  w = await t.workspace({ settings: { plant_address: PLANT } });
  other = await t.workspace();
});
afterAll(async () => {
  letGo();
  await t.close();
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A job at JOB with a draft estimate holding the starter mill-and-overlay line (it has an asphalt haul). */
async function overlayEstimate() {
  const job = (
    await w.api.post('/v1/jobs', { name: `Overlay ${Math.random().toString(36).slice(2, 8)}`, address: JOB })
  ).body.data;
  const estimate = (await w.api.post('/v1/estimates', { job_id: job.id })).body.data;
  const mill = (await w.api.get('/v1/catalog/services?q=mill')).body.data[0];
  const added = await w.api.post(`/v1/estimates/${estimate.id}/line-items`, { service_id: mill.id, quantity: 1500 });
  expect(added.status).toBe(201);
  const lineId = added.body.line_item_id as number;
  const read = async () => (await w.api.get(`/v1/estimates/${estimate.id}/line-items/${lineId}`)).body.data;
  const haul = (await read()).cost_lines.find((cl: { name: string }) => cl.name === 'Haul asphalt');
  return {
    jobId: job.id as number,
    estimateId: estimate.id as number,
    read,
    haulOf: async () => (await read()).cost_lines.find((cl: { id: number }) => cl.id === haul!.id)!,
    automatic: () =>
      w.api.patch(`/v1/estimates/${estimate.id}/line-items/${lineId}`, {
        cost_lines: [{ id: haul!.id, automatic_driving_time: true }],
      }),
  };
}

describe('drive times are looked up outside the transaction', () => {
  it('while a lookup is pending, writes of another workspace and of the same one complete', async () => {
    const e = await overlayEstimate();
    const since = asked.length;
    hold();
    const order: string[] = [];
    const pending = e.automatic().then((res) => {
      order.push('lookup write');
      return res;
    });
    await askedFor(JOB, since);

    const elsewhere = await other.api.post('/v1/jobs', { name: 'Written while a lookup waits' });
    order.push('other workspace');
    const here = await w.api.post('/v1/jobs', { name: 'Same workspace, same moment' });
    order.push('same workspace');
    letGo();
    const res = await pending;

    expect([elsewhere.status, here.status]).toEqual([201, 201]);
    expect(order).toEqual(['other workspace', 'same workspace', 'lookup write']);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await e.haulOf()).haul).toMatchObject({
      drive_hr: estimateDriveHours(point(PLANT), point(JOB)),
      drive_hr_source: 'automatic',
    });
  });

  it('an address changed while the lookup was pending is looked up and used', async () => {
    const e = await overlayEstimate();
    const since = asked.length;
    hold();
    const pending = e.automatic();
    await askedFor(JOB, since);
    expect((await w.api.patch(`/v1/jobs/${e.jobId}`, { address: MOVED })).status).toBe(200);
    letGo();
    const res = await pending;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(asked.slice(since)).toContain(MOVED);
    const haul = (await e.haulOf()).haul;
    expect(haul).toMatchObject({
      drive_hr: estimateDriveHours(point(PLANT), point(MOVED)),
      drive_hr_source: 'automatic',
    });
    expect(haul!.drive_hr).not.toBe(estimateDriveHours(point(PLANT), point(JOB)));
  });

  it('an address that keeps changing during the lookups is a clean 409, nothing saved', async () => {
    const e = await overlayEstimate();
    const before = await e.read();
    const since = asked.length;
    hold();
    const pending = e.automatic();
    await askedFor(JOB, since);
    await w.api.patch(`/v1/jobs/${e.jobId}`, { address: MOVED });
    const beforeSecond = asked.length;
    letGo();
    hold();
    await askedFor(MOVED, beforeSecond);
    await w.api.patch(`/v1/jobs/${e.jobId}`, { address: MOVED_AGAIN });
    letGo();
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'concurrent_change', retryable: true });
    expect(await e.read()).toEqual(before);
    // Sent again, it goes through with the address as it now is.
    const again = await e.automatic();
    expect(again.status).toBe(200);
    expect((await e.haulOf()).haul!.drive_hr).toBe(estimateDriveHours(point(PLANT), point(MOVED_AGAIN)));
  });
});
