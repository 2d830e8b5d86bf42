// Who may change the catalog (owner or estimating admin), who may read it (any read_jobs key),
// and another workspace's ids (404 exactly like missing ones, nothing changes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
let ids: { service: number; line: number; item: number; priceList: number; template: number };

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  const service = (await w.api.get('/v1/catalog/services?q=crack')).body.data[0];
  const line = (await w.api.get(`/v1/catalog/services/${service.id}`)).body.data.cost_lines[0];
  ids = {
    service: service.id,
    line: line.id,
    item: (await w.api.get('/v1/catalog/items?kind=truck')).body.data[0].id,
    priceList: (await w.api.get('/v1/price-lists')).body.data[0].id,
    template: (await w.api.get('/v1/estimate-templates')).body.data[0].id,
  };
});
afterAll(() => t.close());

/** Every write route with a body that would succeed for an owner. */
function writes(n: number) {
  return [
    ['POST', '/v1/catalog/services', { name: `S${n}`, unit: 'EA', estimating_mode: 'unit_costing' }],
    ['PATCH', `/v1/catalog/services/${ids.service}`, { cost_code: `C${n}` }],
    ['DELETE', `/v1/catalog/services/${ids.service}`, undefined],
    ['POST', `/v1/catalog/services/${ids.service}/cost-lines`, { type: 'misc', name: 'm', unit: 'EA', unit_cost: 1 }],
    ['PATCH', `/v1/catalog/services/${ids.service}/cost-lines/${ids.line}`, { waste_factor: 0.1 }],
    ['DELETE', `/v1/catalog/services/${ids.service}/cost-lines/${ids.line}`, undefined],
    ['POST', '/v1/catalog/items', { kind: 'other', name: `I${n}`, unit: 'EA', unit_cost: 1 }],
    ['PATCH', `/v1/catalog/items/${ids.item}`, { unit_cost: 106 }],
    ['DELETE', `/v1/catalog/items/${ids.item}`, undefined],
    ['POST', '/v1/price-lists', { name: `P${n}` }],
    ['PATCH', `/v1/price-lists/${ids.priceList}`, { description: `d${n}` }],
    ['DELETE', `/v1/price-lists/${ids.priceList}`, undefined],
    ['POST', '/v1/estimate-templates', { name: `T${n}`, areas: [{ name: 'A', services: [] }] }],
    ['PATCH', `/v1/estimate-templates/${ids.template}`, { description: `d${n}` }],
    ['DELETE', `/v1/estimate-templates/${ids.template}`, undefined],
  ] as const;
}
const READS = () => [
  '/v1/catalog/services',
  `/v1/catalog/services/${ids.service}`,
  '/v1/catalog/items',
  `/v1/catalog/items/${ids.item}`,
  '/v1/price-lists',
  `/v1/price-lists/${ids.priceList}`,
  '/v1/estimate-templates',
  `/v1/estimate-templates/${ids.template}`,
];

async function restoreAll(api: Client) {
  await api.patch(`/v1/catalog/services/${ids.service}`, { archived: false });
  await api.patch(`/v1/catalog/items/${ids.item}`, { archived: false });
  await api.patch(`/v1/price-lists/${ids.priceList}`, { archived: false });
  await api.patch(`/v1/estimate-templates/${ids.template}`, { archived: false });
}

describe('catalog roles', () => {
  it('estimators, sales, members and viewers read but may not write (403 estimating_admin_required / viewer_read_only)', async () => {
    const users = [
      await t.user(w.firmId, { role: 'member' }), // estimator by default
      await t.user(w.firmId, { role: 'member', estimating_role: 'sales' }),
      await t.user(w.firmId, { role: 'member', estimating_role: 'none' }),
    ];
    let n = 0;
    // A viewer is refused by the platform before the catalog rule.
    const viewer = await t.user(w.firmId, { role: 'viewer' });
    for (const path of READS()) expect((await viewer.api.get(path)).status, path).toBe(200);
    for (const [method, path, body] of writes(++n)) {
      const res = await viewer.api.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('viewer_read_only');
    }
    for (const u of users) {
      for (const path of READS()) expect((await u.api.get(path)).status, path).toBe(200);
      for (const [method, path, body] of writes(++n)) {
        const res = await u.api.request(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toMatchObject({ error: 'Estimating admin required', code: 'estimating_admin_required' });
      }
    }
    expect((await w.api.get(`/v1/catalog/services/${ids.service}`)).body.data.archived_at).toBeNull();
    expect((await w.api.get('/v1/catalog/services?q=S1')).body.data.filter((s: any) => s.name === 'S1')).toHaveLength(
      0,
    );
  });

  it('the owner and an estimating admin may write', async () => {
    const admin = await t.user(w.firmId, { role: 'member', estimating_role: 'admin' });
    let n = 100;
    for (const api of [w.api, admin.api]) {
      for (const [method, path, body] of writes(++n)) {
        const res = await api.request(method, path, body);
        expect([200, 201], `${method} ${path} ${JSON.stringify(res.body)}`).toContain(res.status);
        if (path.includes('/cost-lines/') && method === 'DELETE') {
          ids.line = (
            await api.post(`/v1/catalog/services/${ids.service}/cost-lines`, {
              type: 'misc',
              name: 'again',
              unit: 'EA',
              unit_cost: 1,
            })
          ).body.data.cost_lines.at(-1)!.id;
        }
      }
      await restoreAll(api);
    }
  });

  it('a read-only key reads but gets 403 on writes; a key without read_jobs cannot read', async () => {
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    for (const path of READS()) expect((await ro.get(path)).status).toBe(200);
    for (const [method, path, body] of writes(200)) {
      const res = await ro.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('API key lacks job write permission');
    }
    const none = t.as(await t.key(w.firmId, w.ownerId, ['read_measurements']));
    for (const path of READS()) expect((await none.get(path)).status).toBe(403);
  });
});

describe('another workspace', () => {
  it("answers 404 '<Thing> not found' for every id route and changes nothing", async () => {
    const other = await t.workspace();
    const notFound: Record<string, string> = {
      services: 'Catalog service not found',
      items: 'Catalog item not found',
      'price-lists': 'Price list not found',
      'estimate-templates': 'Estimate template not found',
    };
    for (const [method, path, body] of writes(300)) {
      if (!/\/\d+/.test(path)) continue;
      const res = await other.api.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      const kind = Object.keys(notFound).find((k) => path.includes(`/${k}/`))!;
      expect(res.body.error).toBe(notFound[kind]);
    }
    for (const path of READS().filter((p) => /\/\d+$/.test(p))) expect((await other.api.get(path)).status).toBe(404);
    // References to another workspace's records are unknown too.
    const ref = await other.api.post('/v1/price-lists', {
      name: 'Steal',
      services: [{ service_id: ids.service, unit_price: 1 }],
    });
    expect(ref.status).toBe(404);
    const line = await other.api.post('/v1/catalog/services', {
      name: 'Steal',
      unit: 'EA',
      estimating_mode: 'detailed',
      cost_lines: [{ type: 'trucking', catalog_item_id: ids.item }],
    });
    expect(line.status).toBe(404);
    expect(line.body.catalog_item_ids).toEqual([ids.item]);
    // Lists show only the caller's own catalog.
    const mine = (await w.api.get('/v1/catalog/services?limit=200')).body.data.map((s: any) => s.id);
    const theirs = (await other.api.get('/v1/catalog/services?limit=200')).body.data.map((s: any) => s.id);
    expect(mine.filter((id: number) => theirs.includes(id))).toEqual([]);
    expect((await w.api.get(`/v1/catalog/services/${ids.service}`)).body.data.archived_at).toBeNull();
  });
});
