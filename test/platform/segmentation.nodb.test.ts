// The segmentation endpoint (platform/segmentation.ts) against a real local HTTP server speaking
// its contract: the request it sends, the answer it reads, and every way an answer can fail.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  httpSegmentation,
  readLandscapeSegments,
  readPavedFindings,
  SEGMENTATION_LIMITS,
  SegmentationFailed,
  type SegmentationImage,
  segmentationFor,
} from '#platform/segmentation.ts';

const WIDTH = 64;
const HEIGHT = 48;

// A lot, a hole for a kerbed island, two painted lines and a stall, in the 64×48 image's pixels.
// The outline comes closed, as GeoJSON-minded endpoints send it; `score` is a field we do not read.
const GOOD_ANSWER = {
  surfaces: [
    {
      surface: 'asphalt',
      rings: [
        [
          [0, 0],
          [64, 0],
          [64, 48],
          [0, 48],
          [0, 0],
        ],
        [
          [20.5, 20],
          [30, 20],
          [30, 28.25],
        ],
      ],
      score: 0.93,
    },
  ],
  lines: [
    {
      colour: 'white',
      points: [
        [10, 5],
        [10, 15],
      ],
    },
    {
      colour: 'yellow',
      points: [
        [40, 5],
        [50, 5],
        [60, 6],
      ],
    },
  ],
  stalls: [{ point: [12.5, 10] }],
  model: 'lots-v3',
};

/** What the server answers; a string body is sent as it is. */
type Reply = { status: number; body: unknown } | 'hang' | 'hang-body' | 'oversized' | 'reset' | { resets: number };

let server: http.Server;
let base: string;
let reply: Reply = { status: 200, body: GOOD_ANSWER };
const seen: { method: string; contentType: string | undefined; body: string }[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (reply === 'hang') return;
      // The connection closed with no answer, as a kept-alive connection closed under the client.
      if (reply === 'reset' || (typeof reply === 'object' && 'resets' in reply && reply.resets-- > 0)) {
        req.socket.destroy();
        return;
      }
      if (typeof reply === 'object' && 'resets' in reply) reply = { status: 200, body: GOOD_ANSWER };
      if (reply === 'hang-body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"surfaces": [');
        return;
      }
      if (reply === 'oversized') {
        // Valid JSON past the cap: the client must stop reading, not buffer it all.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"surfaces": [], "lines": [], "stalls": [], "pad": "${'x'.repeat(SEGMENTATION_LIMITS.bodyBytes)}"}`);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/segment`;
});

afterEach(() => {
  reply = { status: 200, body: GOOD_ANSWER };
  seen.length = 0;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let mosaic: SegmentationImage;
beforeAll(async () => {
  const png = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#3a3a3a' } })
    .png()
    .toBuffer();
  mosaic = {
    png,
    width: WIDTH,
    height: HEIGHT,
    metersPerPixel: 0.3,
    bounds: { north: 39.7821, south: 39.7819, east: -89.6498, west: -89.6502 },
  };
});

/** The failure `segmentPaved` gives for the current reply. */
async function failure(timeoutMs?: number, url = base): Promise<SegmentationFailed> {
  const err = await httpSegmentation(url, { timeoutMs })
    .segmentPaved(mosaic)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(SegmentationFailed);
  return err as SegmentationFailed;
}

describe('GROUNDWORK_SEGMENTATION_URL', () => {
  it('unset or blank is the built-in detector; a URL is the endpoint; anything else is refused at start', () => {
    expect(segmentationFor(null)).toBeNull();
    expect(segmentationFor(undefined)).toBeNull();
    expect(segmentationFor('  ')).toBeNull();
    expect(segmentationFor('https://segment.example/paved')).not.toBeNull();
    expect(() => segmentationFor('ftp://segment.example')).toThrow(
      /GROUNDWORK_SEGMENTATION_URL must be an http\(s\) URL/,
    );
    expect(() => segmentationFor('not a url')).toThrow(/GROUNDWORK_SEGMENTATION_URL/);
  });
});

describe('httpSegmentation.segmentPaved', () => {
  it('reads a good answer: rings open, unknown fields ignored', async () => {
    const found = await segmentationFor(base)!.segmentPaved(mosaic);
    expect(found).toEqual({
      surfaces: [
        {
          surface: 'asphalt',
          rings: [
            [
              [0, 0],
              [64, 0],
              [64, 48],
              [0, 48],
            ],
            [
              [20.5, 20],
              [30, 20],
              [30, 28.25],
            ],
          ],
        },
      ],
      lines: GOOD_ANSWER.lines,
      stalls: [{ point: [12.5, 10] }],
    });
  });

  it('sends the contract: a JSON POST with the task, the PNG and its frame', async () => {
    await httpSegmentation(base).segmentPaved(mosaic);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.contentType).toBe('application/json');
    const sent = JSON.parse(seen[0]!.body);
    expect(Object.keys(sent).sort()).toEqual(['image', 'task']);
    expect(sent.task).toBe('paved');
    expect(sent.image).toEqual({
      png_base64: expect.any(String),
      width: WIDTH,
      height: HEIGHT,
      meters_per_pixel: 0.3,
      bounds: { north: 39.7821, south: 39.7819, east: -89.6498, west: -89.6502 },
    });
    const png = Buffer.from(sent.image.png_base64, 'base64');
    expect(png.equals(mosaic.png)).toBe(true);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', WIDTH, HEIGHT]);
  });

  it('an empty answer is no findings, not a failure', async () => {
    reply = { status: 200, body: { surfaces: [], lines: [], stalls: [] } };
    expect(await httpSegmentation(base).segmentPaved(mosaic)).toEqual({ surfaces: [], lines: [], stalls: [] });
  });

  it('a connection closed before the answer is asked again once; closed twice, it fails', async () => {
    reply = { resets: 1 };
    expect((await httpSegmentation(base).segmentPaved(mosaic)).surfaces).toHaveLength(1);
    expect(seen).toHaveLength(2);
    seen.length = 0;
    reply = 'reset';
    expect((await failure()).message).toMatch(/could not segment the image: (ECONNRESET|UND_ERR_SOCKET)/);
    expect(seen).toHaveLength(2);
  });

  it('a non-2xx answer fails with its status', async () => {
    reply = { status: 500, body: { error: 'model crashed' } };
    const err = await failure();
    expect(err.message).toBe('The segmentation endpoint could not segment the image: HTTP 500');
    expect(err.status).toBe(502);
    expect(err.code).toBe('detection_failed');
  });

  it('a body that is not JSON fails', async () => {
    reply = { status: 200, body: '<html>maintenance</html>' };
    expect((await failure()).message).toMatch(/the answer is not JSON/);
    // NaN is not JSON either: an endpoint that writes it has not answered.
    reply = { status: 200, body: '{"surfaces": [], "lines": [], "stalls": [{"point": [NaN, 3]}]}' };
    expect((await failure()).message).toMatch(/the answer is not JSON/);
  });

  it('a body of the wrong shape fails, naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [
        {
          ...GOOD_ANSWER,
          surfaces: [
            {
              surface: 'asphalt',
              rings: [
                [
                  [0, 0],
                  [5, 5],
                ],
              ],
            },
          ],
        },
        /surfaces\[0\]\.rings\[0\] must have at least 3 points/,
      ],
      [
        // 1e999 parses to Infinity.
        '{"surfaces": [], "lines": [{"colour": "white", "points": [[1, 2], [1e999, 2]]}], "stalls": []}',
        /lines\[0\]\.points\[1\] must be \[x, y\] with finite numbers/,
      ],
      [{ ...GOOD_ANSWER, stalls: [{ point: [null, 3] }] }, /stalls\[0\]\.point must be \[x, y\] with finite numbers/],
      [{ ...GOOD_ANSWER, stalls: [{ point: [640, 10] }] }, /stalls\[0\]\.point \[640, 10\] is outside the 64×48 image/],
      [{ ...GOOD_ANSWER, lines: [{ colour: 'red', points: GOOD_ANSWER.lines[0]!.points }] }, /colour must be white/],
      [{ surfaces: [], lines: [] }, /stalls must be an array/],
      [[], /the answer is not a JSON object/],
    ];
    for (const [body, why] of cases) {
      reply = { status: 200, body };
      expect((await failure()).message, JSON.stringify(body)).toMatch(why);
    }
  });

  it('an answer past the byte cap fails without being read whole', async () => {
    reply = 'oversized';
    expect((await failure()).message).toMatch(/the answer is larger than 20971520 bytes/);
  });

  it('no answer in time fails, before the headers or inside the body', async () => {
    reply = 'hang';
    expect((await failure(150)).message).toMatch(/no answer within 150 ms/);
    reply = 'hang-body';
    expect((await failure(150)).message).toMatch(/no answer within 150 ms/);
  });

  it('an unreachable endpoint fails', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect((await failure(undefined, `http://127.0.0.1:${port}/segment`)).message).toMatch(/ECONNREFUSED/);
  });

  it("the caller's cancellation is the caller's, not the endpoint's failure", async () => {
    reply = 'hang';
    const stop = new AbortController();
    const pending = httpSegmentation(base).segmentPaved(mosaic, stop.signal);
    setTimeout(() => stop.abort(new Error('run cancelled')), 50);
    await expect(pending).rejects.toThrow('run cancelled');
    await expect(pending).rejects.not.toBeInstanceOf(SegmentationFailed);
  });
});

describe('readPavedFindings', () => {
  const square = [
    [1, 1],
    [9, 1],
    [9, 9],
  ];
  it('keeps points on the edge and a little past it, refuses more', () => {
    const at = (x: number, y: number) => ({ surfaces: [], lines: [], stalls: [{ point: [x, y] }] });
    expect(readPavedFindings(at(64, 48), WIDTH, HEIGHT).stalls).toEqual([{ point: [64, 48] }]);
    expect(readPavedFindings(at(-1.5, 49.5), WIDTH, HEIGHT).stalls).toEqual([{ point: [-1.5, 49.5] }]);
    expect(() => readPavedFindings(at(-3, 0), WIDTH, HEIGHT)).toThrow(/outside the 64×48 image/);
    expect(() => readPavedFindings(at(0, 51), WIDTH, HEIGHT)).toThrow(/outside/);
  });

  it('refuses surfaces without an outline, closed rings of 2 corners, and answers past the count caps', () => {
    const bad: unknown[] = [
      { surfaces: [{ surface: 'gravel', rings: [square] }], lines: [], stalls: [] },
      { surfaces: [{ surface: 'asphalt', rings: [] }], lines: [], stalls: [] },
      { surfaces: [{ surface: 'concrete', rings: [[...square.slice(0, 2), [1, 1]]] }], lines: [], stalls: [] },
      { surfaces: [{ surface: 'concrete', rings: [[[1, 1, 0], ...square.slice(1)]] }], lines: [], stalls: [] },
      { surfaces: [], lines: [{ colour: 'white', points: [[1, 1]] }], stalls: [] },
      {
        surfaces: Array.from({ length: SEGMENTATION_LIMITS.surfaces + 1 }, () => ({
          surface: 'asphalt',
          rings: [square],
        })),
        lines: [],
        stalls: [],
      },
      {
        surfaces: [],
        lines: Array.from({ length: SEGMENTATION_LIMITS.lines + 1 }, () => ({ colour: 'white', points: square })),
        stalls: [],
      },
    ];
    for (const body of bad)
      expect(() => readPavedFindings(body, WIDTH, HEIGHT), JSON.stringify(body).slice(0, 120)).toThrow(
        SegmentationFailed,
      );
    expect(() => readPavedFindings(bad.at(-2), WIDTH, HEIGHT)).toThrow(/surfaces has 5001 entries, more than 5000/);
  });
});

describe('readLandscapeSegments', () => {
  const ring = [
    [1, 1],
    [9, 1],
    [9, 9],
    [1, 1],
  ];
  it('reads areas (rings open) and objects (radius optional); empty is no findings', () => {
    const read = readLandscapeSegments(
      {
        areas: [{ class: 'lawn', rings: [ring], score: 0.9 }],
        objects: [
          { class: 'deciduous', point: [5, 5], radius_m: 3.5 },
          { class: 'shrub', point: [7, 2] },
        ],
      },
      WIDTH,
      HEIGHT,
    );
    expect(read).toEqual({
      areas: [{ class: 'lawn', rings: [ring.slice(0, 3)] }],
      objects: [
        { class: 'deciduous', point: [5, 5], radius_m: 3.5 },
        { class: 'shrub', point: [7, 2], radius_m: null },
      ],
    });
    expect(readLandscapeSegments({ areas: [], objects: [] }, WIDTH, HEIGHT)).toEqual({ areas: [], objects: [] });
  });

  it('refuses a missing list, a class that is not a string, a bad radius, a point outside, naming the field', () => {
    const bad: [unknown, RegExp][] = [
      [{ areas: [] }, /objects must be an array/],
      [{ areas: [{ class: 7, rings: [ring] }], objects: [] }, /areas\[0\]\.class/],
      [{ areas: [{ class: 'lawn', rings: [] }], objects: [] }, /areas\[0\]\.rings must hold the outline/],
      [{ areas: [], objects: [{ class: 'shrub', point: [1, 1], radius_m: -1 }] }, /objects\[0\]\.radius_m/],
      [{ areas: [], objects: [{ class: 'shrub', point: [99, 1] }] }, /outside the 64×48 image/],
    ];
    for (const [body, why] of bad) expect(() => readLandscapeSegments(body, WIDTH, HEIGHT)).toThrow(why);
  });
});
