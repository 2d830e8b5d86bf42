// A real segmentation endpoint for the landscape tests (GROUNDWORK_SEGMENTATION_URL, task
// landscape): node:http on 127.0.0.1. The test says what is on the ground in [lat, lng]; the
// server answers each image with those areas and objects in that image's pixels (placed by the
// image's bounds on the Web Mercator plane, as imagery frames it), so a test controls exactly what
// a detect run finds. `mode` fails it (500) or holds answers until released.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LatLng } from '#engines/geometry/index.ts';
import { toPixel } from '#platform/imagery/web-mercator.ts';

export interface Ground {
  areas: { class: string; rings: LatLng[][] }[];
  objects: { class: string; point: LatLng }[];
}

export interface Segmenter {
  url: string;
  ground: Ground;
  mode: 'answer' | 'fail';
  /** Images asked about, and the tasks named. */
  asked: { task: string; width: number; height: number }[];
  close(): Promise<void>;
}

interface Asked {
  task: string;
  image: { width: number; height: number; bounds: { north: number; south: number; east: number; west: number } };
}

function pixelsOf(ground: Ground, image: Asked['image']) {
  const { north, south, east, west } = image.bounds;
  const nw = toPixel(north, west, 22);
  const se = toPixel(south, east, 22);
  const px = ([lat, lng]: LatLng): [number, number] => {
    const p = toPixel(lat, lng, 22);
    const x = ((p.x - nw.x) / (se.x - nw.x)) * image.width;
    const y = ((p.y - nw.y) / (se.y - nw.y)) * image.height;
    // The contract takes points at most 2 px past the edge: ground beyond is cut to the image.
    return [Math.min(image.width, Math.max(0, x)), Math.min(image.height, Math.max(0, y))];
  };
  const inside = ([x, y]: [number, number]) => x > 0 && x < image.width && y > 0 && y < image.height;
  return {
    areas: ground.areas.map((a) => ({ class: a.class, rings: a.rings.map((r) => r.map(px)) })),
    objects: ground.objects
      .map((o) => ({ class: o.class, point: px(o.point), radius_m: 2 }))
      .filter((o) => inside(o.point)),
  };
}

export async function startSegmenter(): Promise<Segmenter> {
  const handle = { ground: { areas: [], objects: [] }, mode: 'answer', asked: [] } as unknown as Segmenter;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (handle.mode === 'fail') return void res.writeHead(500).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Asked;
      handle.asked.push({ task: body.task, width: body.image.width, height: body.image.height });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(pixelsOf(handle.ground, body.image)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  handle.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/segment`;
  handle.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return handle;
}

/** A square of `sideM` meters centred `eastM`, `northM` from `origin`, as a ring. */
export function squareAt(origin: { lat: number; lng: number }, eastM: number, northM: number, sideM: number): LatLng[] {
  const dLat = 1 / 111_320;
  const dLng = 1 / (111_320 * Math.cos((origin.lat * Math.PI) / 180));
  const h = sideM / 2;
  const at = (e: number, n: number): LatLng => [origin.lat + n * dLat, origin.lng + e * dLng];
  return [at(eastM - h, northM + h), at(eastM + h, northM + h), at(eastM + h, northM - h), at(eastM - h, northM - h)];
}

/** A point `eastM`, `northM` from `origin`. */
export function pointAt(origin: { lat: number; lng: number }, eastM: number, northM: number): LatLng {
  return [origin.lat + northM / 111_320, origin.lng + eastM / (111_320 * Math.cos((origin.lat * Math.PI) / 180))];
}
