import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateScene } from '#engines/distress/synthetic.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
});
afterAll(() => t.close());

it('smoke', async () => {
  for (const cat of ['clean', 'cracks', 'potholes', 'grass'] as const) {
    const s = generateScene(cat, 3);
    const png = await sharp(Buffer.from(s.pixels.data), { raw: { width: s.pixels.width, height: s.pixels.height, channels: s.pixels.channels } }).png().toBuffer();
    for (const type of ['pci', 'paser']) {
      const t0 = Date.now();
      const r = await w.api.post(`/v1/condition/${type}`, { image: png.toString('base64') });
      console.log(cat, type, r.status, Date.now() - t0, 'ms', JSON.stringify(r.body).slice(0, 900));
    }
  }
  expect(1).toBe(1);
});
