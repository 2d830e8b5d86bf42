// GET /v1/assessment-services: the starter set every workspace gets, each service linked to the
// starter-catalog service that prices it (document 3, Site assessments and pins).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { STARTER_ASSESSMENT_SERVICES } from '#field/assessment-services/starter.ts';
import { giveStarterServices } from '#field/assessment-services/service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('GET /v1/assessment-services', () => {
  it('lists the starter set in order, each priced by its catalog service', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/assessment-services');
    expect(res.status).toBe(200);
    const services = res.body.data as any[];
    expect(services.map((s) => s.name)).toEqual(STARTER_ASSESSMENT_SERVICES.map((s) => s.name));
    expect(services.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Crack sealing', 'Pothole patching', 'Sealcoating', 'Line striping', 'Concrete repair']),
    );
    expect(services.map((s) => s.name)).toEqual(expect.arrayContaining(['Drainage', 'Mulch beds', 'Tree work']));
    const crack = services.find((s) => s.name === 'Crack sealing');
    expect(crack).toEqual({
      id: expect.any(Number),
      name: 'Crack sealing',
      group: 'Asphalt',
      color: '#f59e0b',
      measurement_type: 'lf',
      catalog_service: { id: expect.any(Number), name: 'Crack sealing' },
    });
    // Each link names the workspace's own catalog service.
    const catalog = (await ok(w.api.get('/v1/catalog/services?limit=200'))).data as { id: number; name: string }[];
    for (const s of services) {
      const starter = STARTER_ASSESSMENT_SERVICES.find((x) => x.name === s.name)!;
      if (starter.catalog_service === null) expect(s.catalog_service, s.name).toBeNull();
      else {
        const priced = catalog.find((c) => c.name === starter.catalog_service)!;
        expect(s.catalog_service, s.name).toEqual({ id: priced.id, name: priced.name });
      }
    }
  });

  it('belongs to each workspace: ids differ, and a workspace without the starter catalog has no links', async () => {
    const a = (await t.workspace()).api;
    const b = (await t.workspace()).api;
    const ids = async (api: typeof a) => (await api.get('/v1/assessment-services')).body.data.map((s: any) => s.id);
    const [aIds, bIds] = [await ids(a), await ids(b)];
    expect(aIds.filter((id: number) => bIds.includes(id))).toEqual([]);
    const bare = await t.workspace({ starter_catalog: false });
    const services = (await bare.api.get('/v1/assessment-services')).body.data;
    expect(services).toHaveLength(STARTER_ASSESSMENT_SERVICES.length);
    expect(services.every((s: any) => s.catalog_service === null)).toBe(true);
  });

  it('reads the link as null while the catalog service is archived, and again once restored', async () => {
    const w = await t.workspace();
    const sealcoating = async () =>
      (await w.api.get('/v1/assessment-services')).body.data.find((s: any) => s.name === 'Sealcoating')!;
    const linked = (await sealcoating()).catalog_service;
    expect((await w.api.delete(`/v1/catalog/services/${linked!.id}`)).status).toBe(200);
    expect((await sealcoating()).catalog_service).toBeNull();
    await ok(w.api.patch(`/v1/catalog/services/${linked!.id}`, { archived: false }));
    expect((await sealcoating()).catalog_service).toEqual(linked);
  });

  it('gives the starter set once: a second run adds nothing', async () => {
    const w = await t.workspace();
    await giveStarterServices(t.database.db, w.firmId);
    expect((await w.api.get('/v1/assessment-services')).body.data).toHaveLength(STARTER_ASSESSMENT_SERVICES.length);
  });
});
