// A detect run end to end with the built-in detector (issue 28's proof): a real local tile server
// draws a generated yard whose truth is known (engines/landscape's generator); a landscape takeoff
// is detected over it and its quantities are held to the tolerances: the lawn within
// ±5%, mulch and planting beds within ±10%, and the trees counted exactly. The detector's own
// figures over many yards are in docs/landscape-detector.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQUARE_METERS_PER_SQUARE_FOOT } from '#engines/geometry/index.ts';
import { syntheticYard } from '#engines/landscape/synthetic-yard.ts';
import { landscapeRunTask } from '#measurement/landscape/run-worker.ts';
import { systemClock } from '#platform/clock.ts';
import { imageryFor } from '#platform/imagery/select.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { startYardTiles, type YardTiles, yardOutlineOf } from './yard-tiles.ts';

const YARDS = [3];
const scenes = YARDS.map((seed) => syntheticYard(seed, { touchingPair: true }));
const servers: YardTiles[] = [];
const apps: TestApp[] = [];

beforeAll(async () => {
  for (const scene of scenes) {
    const tiles = await startYardTiles(scene);
    servers.push(tiles);
    apps.push(
      await startApp({
        imagery: imageryFor(
          { standardUrl: tiles.template, premiumUrl: null, cacheMb: 0 },
          fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-yard-')),
          true,
        ),
      }),
    );
  }
}, 60_000);
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const s of servers) await s.close();
});

const share = (got: number, truth: number) => Math.abs(got - truth) / truth;

describe('the built-in detector through a detect run', () => {
  for (const [i, seed] of YARDS.entries())
    it(`yard ${seed}: lawn within 5%, beds and mulch within 10%, trees exact`, async () => {
      const t = apps[i]!;
      const scene = scenes[i]!;
      const w = await t.workspace();
      await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { takeoff_credits: 1 } }));
      const j = await job(w.api, { name: `Yard ${seed}` });
      const tk = (await ok(w.api.request('POST', `/v1/jobs/${j.id}/landscape-takeoffs`, { type: 'aerial' }))).data;
      const run = (
        await ok(
          w.api.request('POST', `/v1/landscape-takeoffs/${tk.id}/detect`, { polygon: yardOutlineOf(scene) }),
          [202],
        )
      ).data;
      await landscapeRunTask(t.env, { clock: systemClock, leaseMs: 60_000 }).sweep();
      const done = (await ok(w.api.request('GET', `/v1/landscape-runs/${run.id}`))).data;
      expect(done.status, JSON.stringify(done.failure)).toBe('completed');
      expect(done.result).toMatchObject({ detector: 'built_in', imagery: { zoom: 20, windows: 1 } });
      const q = (await ok(w.api.request('GET', `/v1/landscape-takeoffs/${tk.id}`))).data.quantities;
      const m2 = (cls: string) =>
        (q.areas.find((a: any) => a.class === cls)?.area_sqft ?? 0) * SQUARE_METERS_PER_SQUARE_FOOT;
      const { truth } = scene;
      expect(share(m2('lawn'), truth.lawnM2), `lawn ${m2('lawn')} vs ${truth.lawnM2}`).toBeLessThanOrEqual(0.05);
      const beds = m2('bed') + m2('mulch');
      expect(share(beds, truth.bedM2 + truth.mulchM2), `beds ${beds}`).toBeLessThanOrEqual(0.1);
      expect(q.tree_count).toBe(truth.trees.length);
    }, 60_000);
});
