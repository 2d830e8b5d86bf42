// "Quantities reach the job's draft estimate" (document 3, Site assessments and pins): pins of a
// service linked to a catalog service set that service's line in the "Site assessment" area of the
// job's draft estimate, priced and logged like an API line write; lines typed by hand, estimates
// that are not drafts and services with no catalog link are left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { quantityInUnit } from '#estimating/index.ts';

let t: TestApp;
let w: Workspace;
/** Assessment service ids and catalog service ids of the starter sets, by name. */
let kind: Record<string, number>;
let catalog: Record<string, number>;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  kind = Object.fromEntries((await w.api.get('/v1/assessment-services')).body.data.map((s: any) => [s.name, s.id]));
  catalog = Object.fromEntries(
    (await w.api.get('/v1/catalog/services?limit=200')).body.data.map((s: any) => [s.name, s.id]),
  );
});
afterAll(() => t.close());

const AT = { latitude: 39.78, longitude: -89.65 };

const pin = async (jobId: number, service: string, body: Record<string, unknown> = {}) =>
  (await ok(w.api.post('/v1/assessment-pins', { job_id: jobId, ...AT, service_type_id: kind[service], ...body }))).data;

async function jobWithDraft() {
  const j = await job(w);
  const e = (await ok(w.api.post('/v1/estimates', { job_id: j.id }))).data;
  return { jobId: j.id as number, estimateId: e.id as number };
}

const estimate = async (id: number) => (await ok(w.api.get(`/v1/estimates/${id}`))) as any;
const assessmentArea = (e: any) => e.areas.find((a: any) => a.quantity_source === 'assessment');
const lineOf = (e: any, serviceName: string) =>
  assessmentArea(e)?.services.find((l: any) => l.assembly_id === catalog[serviceName]);
const revisions = async (id: number) => (await ok(w.api.get(`/v1/estimates/${id}/revisions?limit=100`))).data;

describe("pins reach the job's draft estimate", () => {
  it('a linked pin adds the line in the Site assessment area, priced; more pins add to it; PATCH and DELETE update it', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    const first = await pin(jobId, 'Line striping', { measurement_value: 100 });

    let e = await estimate(estimateId);
    const area = assessmentArea(e);
    expect(area).toMatchObject({ name: 'Site assessment', quantity_source: 'assessment', takeoff_id: null });
    const line = lineOf(e, 'Line striping');
    expect(line).toMatchObject({
      name: 'Line striping',
      assembly_id: catalog['Line striping'],
      area_id: area.id,
      quantity: 100,
      unit: 'LF',
      quantity_source: 'inherited',
      estimating_mode: 'unit_costing',
    });
    expect(line.price).toBeGreaterThan(0);
    expect(e.totals.price).toBe(line.price);

    // Priced exactly as the same line written through the API.
    const twin = await jobWithDraft();
    await ok(
      w.api.post(`/v1/estimates/${twin.estimateId}/line-items`, {
        service_id: catalog['Line striping'],
        quantity: 100,
      }),
    );
    const api = await estimate(twin.estimateId);
    expect(api.totals).toEqual(e.totals);
    expect(api.areas[0].services[0].price).toBe(line.price);

    const second = await pin(jobId, 'Line striping', { measurement_value: 50.5 });
    e = await estimate(estimateId);
    expect(lineOf(e, 'Line striping')).toMatchObject({ id: line.id, quantity: 150.5 });
    expect(e.totals.price).toBeGreaterThan(line.price);

    await ok(w.api.patch(`/v1/assessment-pins/${first.id}`, { measurement_value: 120 }));
    expect(lineOf(await estimate(estimateId), 'Line striping').quantity).toBe(170.5);

    // A change that is no measurement leaves the estimate alone.
    const before = (await revisions(estimateId)).length;
    await ok(w.api.patch(`/v1/assessment-pins/${first.id}`, { notes: 'faded' }));
    expect((await revisions(estimateId)).length).toBe(before);

    expect((await w.api.delete(`/v1/assessment-pins/${second.id}`)).status).toBe(204);
    expect(lineOf(await estimate(estimateId), 'Line striping').quantity).toBe(120);
    expect((await w.api.delete(`/v1/assessment-pins/${first.id}`)).status).toBe(204);
    e = await estimate(estimateId);
    expect(lineOf(e, 'Line striping')).toBeUndefined();
    // An estimate with no line in the bid has no totals, as after an API line removal.
    expect(e.totals).toBeNull();
    expect(assessmentArea(e).services).toEqual([]);

    // Each change is one edit-log entry, like the API's line writes, saying where it came from.
    const log = await revisions(estimateId);
    expect(log.map((r: any) => r.action)).toEqual([
      'line_removed',
      'line_changed',
      'line_changed',
      'line_changed',
      'line_added',
      'created',
    ]);
    expect(log[3]).toMatchObject({
      user: { id: w.ownerId },
      changes: { line_item_id: line.id, fields: { quantity: { from: '100', to: '150.5' } }, source: 'site_assessment' },
    });
    expect(log[4].changes).toEqual({
      line_item_id: line.id,
      service_id: catalog['Line striping'],
      source: 'site_assessment',
    });
    expect(log[0].changes).toEqual({ line_item_ids: [line.id], source: 'site_assessment' });
  });

  it('records what an API line write records: no estimate event, the job keeps its estimate total', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    const eventsBefore = (await eventsOf(t.database, jobId)).map((e) => e.event_type);
    await pin(jobId, 'Parking stall striping', { measurement_value: 12 });
    const e = await estimate(estimateId);
    expect(e.totals.price).toBeGreaterThan(0);
    const eventsAfter = (await eventsOf(t.database, jobId)).map((e) => e.event_type);
    expect(eventsAfter.filter((type) => type.startsWith('estimate_'))).toEqual(
      eventsBefore.filter((type) => type.startsWith('estimate_')),
    );
    const j = (await ok(w.api.get(`/v1/jobs/${jobId}`))).data;
    expect(j).toMatchObject({ estimate_id: estimateId, estimate_total: e.totals.price });
  });

  it('converts square feet to the catalog unit (sealcoating in SY), rounding once', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    await pin(jobId, 'Sealcoating', { measurement_value: 1000 });
    await pin(jobId, 'Sealcoating', { length_ft: 10, width_ft: 10, measurement_type: 'dimensions' });
    expect(lineOf(await estimate(estimateId), 'Sealcoating, 2 coats')).toMatchObject({ quantity: 122.22, unit: 'SY' });
  });

  it('a detailed service gets its cost lines; two assessment services on one catalog service share its line', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    await pin(jobId, 'Pothole patching', { measurement_value: 40 });
    await pin(jobId, 'Base failure repair', { length_ft: 5, width_ft: 4 });
    const e = await estimate(estimateId);
    const line = lineOf(e, 'Full-depth asphalt patch');
    expect(line).toMatchObject({ quantity: 60, unit: 'SF', estimating_mode: 'detailed' });
    expect(line.price).toBeGreaterThan(0);
    const full = (await ok(w.api.get(`/v1/estimates/${estimateId}/line-items/${line.id}`))).data;
    expect(full.cost_lines.length).toBeGreaterThan(0);
    expect(assessmentArea(e).services).toHaveLength(1);
  });

  it('a pin that changes service moves its quantity from one line to the other', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    const p = await pin(jobId, 'Line striping', { measurement_value: 80 });
    await ok(w.api.patch(`/v1/assessment-pins/${p.id}`, { service_type_id: kind['Crack sealing'] }));
    const e = await estimate(estimateId);
    expect(lineOf(e, 'Line striping')).toBeUndefined();
    expect(lineOf(e, 'Crack sealing')).toMatchObject({ quantity: 80, unit: 'LF' });
  });

  it('pins not measured yet add nothing; a duplicated assessment is not counted twice', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    const p = await pin(jobId, 'Line striping');
    expect(assessmentArea(await estimate(estimateId))).toBeUndefined();
    await ok(w.api.patch(`/v1/assessment-pins/${p.id}`, { measurement_value: 30 }));
    await ok(w.api.post(`/v1/site-assessments/${p.assessment_id}/duplicate`, {}));
    await pin(jobId, 'Line striping', { measurement_value: 5 });
    expect(lineOf(await estimate(estimateId), 'Line striping').quantity).toBe(35);
  });

  it('the most recently changed draft gets the quantities; an issued estimate is untouched', async () => {
    const j = await job(w);
    const older = (await ok(w.api.post('/v1/estimates', { job_id: j.id }))).data;
    const issued = (await ok(w.api.post('/v1/estimates', { job_id: j.id }))).data;
    await ok(
      w.api.post(`/v1/estimates/${issued.id}/line-items`, { name: 'Sign', unit: 'EA', quantity: 1, unit_cost: 50 }),
    );
    await ok(w.api.post(`/v1/estimates/${issued.id}/issue`, {}));
    const newer = (await ok(w.api.post('/v1/estimates', { job_id: j.id }))).data;
    const issuedBefore = await estimate(issued.id);
    const olderLog = await revisions(older.id);

    await pin(j.id, 'Line striping', { measurement_value: 10 });
    expect(lineOf(await estimate(newer.id), 'Line striping').quantity).toBe(10);
    expect(await estimate(issued.id)).toEqual(issuedBefore);
    expect(await revisions(older.id)).toEqual(olderLog);
  });

  it('no draft estimate: the pin is made and no estimate changes', async () => {
    const j = await job(w);
    const p = await pin(j.id, 'Line striping', { measurement_value: 10 });
    expect(p.measurement).toMatchObject({ value: 10, unit: 'LF' });
    expect((await ok(w.api.get(`/v1/estimates?job_id=${j.id}`))).data).toEqual([]);
  });

  it('a service with no catalog link changes nothing', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    const before = await estimate(estimateId);
    await pin(jobId, 'Drainage', { measurement_value: 3 });
    expect(await estimate(estimateId)).toEqual(before);
    expect(await revisions(estimateId)).toHaveLength(1);
  });

  it('a quantity typed by hand is never changed by pins again', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    const p = await pin(jobId, 'Line striping', { measurement_value: 100 });
    const line = lineOf(await estimate(estimateId), 'Line striping');
    await ok(w.api.patch(`/v1/estimates/${estimateId}/line-items/${line.id}`, { quantity: 250 }));
    const edited = await estimate(estimateId);
    expect(lineOf(edited, 'Line striping')).toMatchObject({ quantity: 250, quantity_source: 'manual' });

    await pin(jobId, 'Line striping', { measurement_value: 40 });
    await ok(w.api.patch(`/v1/assessment-pins/${p.id}`, { measurement_value: 1 }));
    expect(await estimate(estimateId)).toEqual(edited);
    expect((await w.api.delete(`/v1/assessment-pins/${p.id}`)).status).toBe(204);
    expect(await estimate(estimateId)).toEqual(edited);
  });

  it('a line with only its price changed by hand still follows the pins', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    await pin(jobId, 'Line striping', { measurement_value: 100 });
    const line = lineOf(await estimate(estimateId), 'Line striping');
    await ok(w.api.patch(`/v1/estimates/${estimateId}/line-items/${line.id}`, { unit_price: 1 }));
    await pin(jobId, 'Line striping', { measurement_value: 20 });
    expect(lineOf(await estimate(estimateId), 'Line striping')).toMatchObject({
      quantity: 120,
      unit_price: 1,
      price: 120,
      quantity_source: 'inherited',
    });
  });

  it('an estimate write that fails fails the pin write: neither is saved', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    const p = await pin(jobId, 'Mill and overlay', { measurement_value: 450 });
    const line = lineOf(await estimate(estimateId), 'Mill and overlay, 2"');
    const full = (await ok(w.api.get(`/v1/estimates/${estimateId}/line-items/${line.id}`))).data;
    const tack = full.cost_lines.find((cl: any) => cl.name === 'Tack coat (SS-1h)');
    // The service is sold by the SY: 450 SF is 50 SY, which prices; at 180 SF (20 SY) the formula divides by zero.
    await ok(
      w.api.patch(`/v1/estimates/${estimateId}/line-items/${line.id}`, {
        cost_lines: [{ id: tack!.id, quantity_formula: 'quantity / (quantity - 20)' }],
      }),
    );
    const before = await estimate(estimateId);
    const log = await revisions(estimateId);

    const res = await w.api.patch(`/v1/assessment-pins/${p.id}`, { measurement_value: 180 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'pricing_error', line_item_id: line.id });
    expect((await ok(w.api.get(`/v1/assessment-pins/${p.id}`))).data.measurement.value).toBe(450);
    expect(await estimate(estimateId)).toEqual(before);
    expect(await revisions(estimateId)).toEqual(log);
  });

  it('values that do not convert to the catalog unit are left out (mulch beds in SF, mulch sold by the CY)', async () => {
    const { jobId, estimateId } = await jobWithDraft();
    await pin(jobId, 'Mulch beds', { measurement_value: 400 });
    expect(assessmentArea(await estimate(estimateId))).toBeUndefined();
    expect(await revisions(estimateId)).toHaveLength(1);
    await pin(jobId, 'Mulch beds', { length_ft: 30, width_ft: 9, depth_in: 3 });
    expect(lineOf(await estimate(estimateId), 'Mulch install')).toMatchObject({ quantity: 2.5, unit: 'CY' });
  });
});

describe('quantityInUnit', () => {
  it('reads catalog spellings, converts once and rounds half up to hundredths', () => {
    const sums = new Map([
      ['SF', 100_000],
      ['LF', 5_050],
    ] as const);
    expect(quantityInUnit(new Map(sums), 'sq ft')).toBe(100_000);
    expect(quantityInUnit(new Map(sums), 'SQYD')).toBe(11_111);
    expect(quantityInUnit(new Map(sums), 'lf')).toBe(5_050);
    expect(quantityInUnit(new Map([['CY', 250]]), 'cu ft')).toBe(6_750);
    expect(quantityInUnit(new Map([['EA', 300]]), 'each')).toBe(300);
    expect(quantityInUnit(new Map(sums), 'VISIT')).toBe(0);
    expect(quantityInUnit(new Map([['CY', 100]]), 'SF')).toBe(0);
  });
});
