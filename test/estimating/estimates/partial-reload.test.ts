// A line write re-prices the estimate after reading again only the lines it wrote (write.ts,
// repo.ts reloadLines), not the whole tree. Whatever sequence of line writes is sent, each answer
// must equal what a re-pricing from the whole tree gives: POST …/recalculate reads every row
// afresh, so its answer, and each line's cost lines as GET reads them, are the reference. The
// writes are drawn by fast-check: catalog and custom lines in new and existing areas, quantities,
// parents, bundles, exclusions, area moves, cost-line edits, removals (a bundle with its
// sub-lines, a parent whose children are unlinked), a change that changes nothing (answered as
// stored), refused writes among them.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
let services: number[];

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  const list = (await w.api.get('/v1/catalog/services?limit=200')).body.data as {
    id: number;
    estimating_mode: string;
  }[];
  // Four detailed services (with cost lines) and four unit-priced ones of the starter catalog.
  const detailed = list.filter((s) => s.estimating_mode === 'detailed').map((s) => s.id);
  const unit = list.filter((s) => s.estimating_mode !== 'detailed').map((s) => s.id);
  expect(detailed.length).toBeGreaterThan(1);
  services = [...detailed.slice(0, 4), ...unit.slice(0, 4)];
});
afterAll(() => t.close());

type Op =
  | {
      kind: 'add';
      service: number;
      quantity: number;
      area: string | null;
      parent: number;
      bundle: boolean;
      inBundle: number;
    }
  | { kind: 'custom'; quantity: number; cost: number }
  | { kind: 'quantity'; line: number; quantity: number }
  | { kind: 'exclude'; line: number; excluded: boolean }
  | { kind: 'parent'; line: number; parent: number }
  | { kind: 'move'; line: number; area: number }
  | { kind: 'cost'; line: number; costLine: number; quantity: number }
  | { kind: 'remove'; line: number }
  | { kind: 'nothing'; line: number };

const pick = fc.nat({ max: 20 });
const qty = fc.integer({ min: 1, max: 20_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    service: fc.nat({ max: 7 }),
    quantity: qty,
    area: fc.constantFrom(null, 'Main', 'Front lot', 'Back lot'),
    parent: fc.integer({ min: -1, max: 20 }),
    bundle: fc.boolean(),
    inBundle: fc.integer({ min: -1, max: 20 }),
  }),
  fc.record({ kind: fc.constant('custom' as const), quantity: qty, cost: fc.integer({ min: 0, max: 5000 }) }),
  fc.record({ kind: fc.constant('quantity' as const), line: pick, quantity: qty }),
  fc.record({ kind: fc.constant('exclude' as const), line: pick, excluded: fc.boolean() }),
  fc.record({ kind: fc.constant('parent' as const), line: pick, parent: fc.integer({ min: -1, max: 20 }) }),
  fc.record({ kind: fc.constant('move' as const), line: pick, area: fc.nat({ max: 3 }) }),
  fc.record({ kind: fc.constant('cost' as const), line: pick, costLine: fc.nat({ max: 6 }), quantity: qty }),
  fc.record({ kind: fc.constant('remove' as const), line: pick }),
  fc.record({ kind: fc.constant('nothing' as const), line: pick }),
);

/** The estimate's answer without what every write moves (revision, updated_at). */
const settled = (e: Record<string, unknown>) => {
  const { revision: _r, updated_at: _u, ...rest } = e;
  return rest;
};

/** The lines the estimate shows (those in the bid), in its areas. */
async function linesOf(id: number): Promise<{ id: number; is_bundle_master: boolean }[]> {
  const e = (await w.api.get(`/v1/estimates/${id}`)).body;
  return e.areas.flatMap((a: { services: any[] }) => a.services);
}

/** Each line's cost lines as GET reads them from the stored calculation. */
async function costLinesOf(id: number, lineIds: number[]) {
  const out: Record<number, unknown> = {};
  for (const lineId of lineIds) out[lineId] = (await w.api.get(`/v1/estimates/${id}/line-items/${lineId}`)).body;
  return out;
}

async function send(id: number, o: Op, lines: { id: number; is_bundle_master: boolean }[], areas: number[]) {
  const line = (i: number) => lines[i % Math.max(lines.length, 1)]?.id ?? 999_999_999;
  const base = `/v1/estimates/${id}/line-items`;
  switch (o.kind) {
    case 'add': {
      const masters = lines.filter((l) => l.is_bundle_master);
      return w.api.post(base, {
        service_id: services[o.service % services.length],
        quantity: o.quantity,
        ...(o.area === null ? {} : { area_name: o.area }),
        ...(o.parent >= 0 && lines.length > 0 ? { parent_service_id: line(o.parent) } : {}),
        ...(o.bundle ? { is_bundle_master: true } : {}),
        ...(!o.bundle && o.inBundle >= 0 && masters.length > 0
          ? { bundle_parent_service_id: masters[o.inBundle % masters.length].id }
          : {}),
      });
    }
    case 'custom':
      return w.api.post(base, { name: 'Custom work', unit: 'EA', quantity: o.quantity, unit_cost: o.cost / 100 });
    case 'quantity':
      return w.api.patch(`${base}/${line(o.line)}`, { quantity: o.quantity });
    case 'exclude':
      return w.api.patch(`${base}/${line(o.line)}`, { excluded: o.excluded });
    case 'parent':
      return w.api.patch(`${base}/${line(o.line)}`, { parent_service_id: o.parent < 0 ? null : line(o.parent) });
    case 'move':
      return w.api.patch(`${base}/${line(o.line)}`, { area_id: areas[o.area % areas.length] });
    case 'cost': {
      const target = line(o.line);
      const costLines = (await w.api.get(`${base}/${target}`)).body.data?.cost_lines ?? [];
      if (costLines.length === 0) return w.api.patch(`${base}/${target}`, { quantity: o.quantity });
      const cl = costLines[o.costLine % costLines.length];
      return w.api.patch(`${base}/${target}`, { cost_lines: [{ id: cl.id, manual_quantity: o.quantity / 10 }] });
    }
    case 'remove':
      return w.api.delete(`${base}/${line(o.line)}`);
    case 'nothing':
      // Changes nothing: answered as stored (its calculation read then), not re-priced.
      return w.api.patch(`${base}/${line(o.line)}`, {});
  }
}

it('answers every line write as a re-pricing from the whole tree would', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops) => {
      const job = await w.api.post('/v1/jobs', {
        name: 'Reload check',
        address: '1 Main St',
        allow_duplicate_name: true,
      });
      expect(job.status, JSON.stringify(job.body)).toBe(201);
      const id = (await w.api.post('/v1/estimates', { job_id: job.body.data.id })).body.data.id as number;
      // Lines to work on from the start: two detailed, one unit-priced, one custom.
      for (const service of [services[0], services[1], services[4]])
        expect(
          (await w.api.post(`/v1/estimates/${id}/line-items`, { service_id: service, quantity: 1200 })).status,
        ).toBe(201);
      expect(
        (
          await w.api.post(`/v1/estimates/${id}/line-items`, {
            name: 'Cleanup',
            unit: 'EA',
            quantity: 2,
            unit_cost: 150,
          })
        ).status,
      ).toBe(201);
      for (const o of ops) {
        const before = (await w.api.get(`/v1/estimates/${id}`)).body;
        const areas = before.areas.map((a: { id: number }) => a.id);
        const res = await send(id, o, await linesOf(id), areas);
        // Refused only for what the body asks (a line that is gone, a parent that is not another line):
        // these writes always price, so a pricing refusal would be the tree read wrong.
        if (res.status >= 300) expect([400, 404], JSON.stringify(res.body)).toContain(res.status);
        if (res.status >= 300) continue;
        const answered = res.body.data;
        const lineIds = (await linesOf(id)).map((l) => l.id);
        const costLines = await costLinesOf(id, lineIds);
        const whole = await w.api.post(`/v1/estimates/${id}/recalculate`, {});
        expect(whole.status).toBe(200);
        expect(settled(answered), `${o.kind} answered as a full re-pricing does`).toEqual(settled(whole.body.data));
        expect(await costLinesOf(id, lineIds), `${o.kind}: cost lines as stored`).toEqual(costLines);
      }
    }),
    { numRuns: 8 },
  );
});
