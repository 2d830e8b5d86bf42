// A real XYZ tile server drawing aerial views for the condition-rating tests: node:http on
// 127.0.0.1, each tile drawn from global pixel coordinates so neighbouring tiles join without a
// seam. `/asphalt/{z}/{x}/{y}.png` is an asphalt lot seen from above (grey with aggregate noise);
// `/lawn/...` is grass; `/missing/...` answers 404 (no coverage). Tile requests are counted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** A repeatable 0–1 value per pixel. */
function noise(gx: number, gy: number): number {
  let h = (gx * 374761393 + gy * 668265263) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

async function drawTile(kind: 'asphalt' | 'lawn', x: number, y: number): Promise<Buffer> {
  const raw = Buffer.alloc(256 * 256 * 3);
  for (let row = 0; row < 256; row++)
    for (let col = 0; col < 256; col++) {
      const n = noise(x * 256 + col, y * 256 + row);
      const px =
        kind === 'asphalt' ? [84 + n * 18, 84 + n * 18, 86 + n * 18] : [52 + n * 30, 118 + n * 40, 38 + n * 20];
      raw.set(px.map(Math.round), (row * 256 + col) * 3);
    }
  return sharp(raw, { raw: { width: 256, height: 256, channels: 3 } })
    .png()
    .toBuffer();
}

export interface AerialTiles {
  template(kind: 'asphalt' | 'lawn' | 'missing'): string;
  requests: number;
  close(): Promise<void>;
}

export async function startAerialTiles(headers: Record<string, string> = {}): Promise<AerialTiles> {
  const handle = { requests: 0 } as AerialTiles;
  const server = http.createServer((req, res) => {
    handle.requests++;
    const m = /^\/(asphalt|lawn|missing)\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
    if (!m || m[1] === 'missing') {
      res.writeHead(404).end();
      return;
    }
    drawTile(m[1] as 'asphalt' | 'lawn', Number(m[3]), Number(m[4])).then(
      (png) => res.writeHead(200, { 'content-type': 'image/png', ...headers }).end(png),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  handle.template = (kind) => `http://127.0.0.1:${port}/${kind}/{z}/{x}/{y}.png`;
  handle.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return handle;
}
