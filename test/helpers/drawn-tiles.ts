// A real XYZ tile server for tests that draw their imagery (the measurement and landscape tests):
// node:http on 127.0.0.1 answering `/{prefix}/{z}/{x}/{y}.png` with the PNG of the pixels `answer`
// draws for that tile, or with the status it gives instead (404 no coverage, 500 a broken server).
// Every request is counted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { RawPixels } from '#engines/paved/types.ts';

export type TileAnswer = (prefix: string, z: number, x: number, y: number) => RawPixels | number;

export interface DrawnTileServer {
  /** http://127.0.0.1:<port> */
  base: string;
  requests: number;
  close(): Promise<void>;
}

export async function startDrawnTileServer(answer: TileAnswer): Promise<DrawnTileServer> {
  const handle = { requests: 0 } as DrawnTileServer;
  const server = http.createServer((req, res) => {
    handle.requests++;
    const m = /^\/([a-z]+)\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
    const drawn = m ? answer(m[1]!, Number(m[2]), Number(m[3]), Number(m[4])) : 404;
    if (typeof drawn === 'number') return void res.writeHead(drawn).end();
    sharp(Buffer.from(drawn.data), { raw: { width: drawn.width, height: drawn.height, channels: drawn.channels } })
      .png()
      .toBuffer()
      .then(
        (png) => res.writeHead(200, { 'content-type': 'image/png' }).end(png),
        () => res.writeHead(500).end(),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  handle.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handle.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return handle;
}
