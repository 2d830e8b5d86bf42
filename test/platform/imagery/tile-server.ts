// A real XYZ tile server for the imagery tests: node:http on 127.0.0.1 at a port of its own,
// serving tiles it draws with sharp, so every pixel of a mosaic can be traced to its tile:
//   red   = (7x + 13y) mod 256 (which tile),
//   green = the row inside the tile, blue = the column inside the tile (where in it).
// The first path segment picks how the server behaves (see Mode).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export type Mode =
  | 'png' // the tiles, as PNG
  | 'jpeg' // the tiles, as JPEG
  | 'dated' // PNG with X-Capture-Date: 2026-05-14 and an older Last-Modified
  | 'modified' // PNG with only Last-Modified: Tue, 03 Mar 2026 22:30:00 GMT
  | 'baddate' // PNG with an X-Capture-Date that is no date, and a Last-Modified
  | 'missing' // 404 for every tile
  | 'empty' // 204 for every tile
  | 'partial' // 404 for tiles whose x is odd, the tiles elsewhere
  | 'broken' // 500 for every tile
  | 'forbidden' // 403 for every tile (a wrong key)
  | 'garbage' // 200 with bytes that are no image
  | 'reset'; // the first request for each tile has its connection cut with no answer, later ones PNG

export const tileRed = (x: number, y: number) => (7 * x + 13 * y) % 256;

/** The expected pixel at global pixel (gx, gy) at any zoom. */
export const expectedPixel = (gx: number, gy: number): [number, number, number] => [
  tileRed(Math.floor(gx / 256), Math.floor(gy / 256)),
  gy % 256,
  gx % 256,
];

export async function drawTile(x: number, y: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const raw = Buffer.alloc(256 * 256 * 3);
  for (let row = 0; row < 256; row++)
    for (let col = 0; col < 256; col++) raw.set([tileRed(x, y), row, col], (row * 256 + col) * 3);
  const image = sharp(raw, { raw: { width: 256, height: 256, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 95 }).toBuffer();
}

export interface TileServerHandle {
  /** The template for a mode: http://127.0.0.1:<port>/<mode>/{z}/{x}/{y}.png */
  template(mode: Mode): string;
  /** Tile requests seen, as "<mode>/z/x/y". */
  seen: string[];
  close(): Promise<void>;
}

export async function startTileServer(): Promise<TileServerHandle> {
  const seen: string[] = [];
  const cut = new Set<string>();
  const server = http.createServer((req, res) => {
    const m = /^\/([a-z]+)\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(400).end();
      return;
    }
    const [, mode, z, xs, ys] = m as unknown as [string, Mode, string, string, string];
    seen.push(`${mode}/${z}/${xs}/${ys}`);
    const x = Number(xs);
    const y = Number(ys);
    const send = async (headers: Record<string, string> = {}, format: 'png' | 'jpeg' = 'png') => {
      const body = await drawTile(x, y, format);
      res.writeHead(200, { 'content-type': `image/${format}`, 'content-length': body.length, ...headers });
      res.end(body);
    };
    const fail = (status: number) => res.writeHead(status, { 'content-type': 'text/plain' }).end(`HTTP ${status}`);
    switch (mode) {
      case 'png':
        return void send();
      case 'jpeg':
        return void send({}, 'jpeg');
      case 'dated':
        return void send({ 'x-capture-date': '2026-05-14', 'last-modified': 'Mon, 01 Dec 2025 08:00:00 GMT' });
      case 'modified':
        return void send({ 'last-modified': 'Tue, 03 Mar 2026 22:30:00 GMT' });
      case 'baddate':
        return void send({ 'x-capture-date': '2026-13-45', 'last-modified': 'Wed, 07 Jan 2026 12:00:00 GMT' });
      case 'missing':
        return fail(404);
      case 'empty':
        return void res.writeHead(204).end();
      case 'partial':
        return x % 2 === 1 ? fail(404) : void send();
      case 'broken':
        return fail(500);
      case 'forbidden':
        return fail(403);
      case 'garbage':
        return void res.writeHead(200, { 'content-type': 'image/png' }).end('this is not a png');
      case 'reset':
        if (!cut.has(`${z}/${xs}/${ys}`)) {
          cut.add(`${z}/${xs}/${ys}`);
          return void req.socket.destroy();
        }
        return void send();
      default:
        return fail(400);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    template: (mode) => `http://127.0.0.1:${port}/${mode}/{z}/{x}/{y}.png`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
