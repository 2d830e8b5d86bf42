// Drawing primitives for the synthetic pavement generator: a float RGB canvas with seeded noise,
// thick polylines, filled polygons and soft blobs. Plain loops over bounding boxes are fine here:
// this draws test images, it is not the detector.

/** Mulberry32: small, fast, seeded; the same seed draws the same image on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function gauss(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

export type Rgb = [number, number, number];
export type Pt = [number, number];

export class Canvas {
  readonly r: Float32Array;
  readonly g: Float32Array;
  readonly b: Float32Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const n = width * height;
    this.r = new Float32Array(n);
    this.g = new Float32Array(n);
    this.b = new Float32Array(n);
  }

  fill(c: Rgb): void {
    this.r.fill(c[0]);
    this.g.fill(c[1]);
    this.b.fill(c[2]);
  }

  /** Blend pixel i toward colour c by weight w (0..1). */
  blend(i: number, c: Rgb, w: number): void {
    this.r[i] += (c[0] - this.r[i]) * w;
    this.g[i] += (c[1] - this.g[i]) * w;
    this.b[i] += (c[2] - this.b[i]) * w;
  }

  /** Multiply pixel i's brightness by f, blended by weight w. */
  scale(i: number, f: number, w: number): void {
    const k = 1 + (f - 1) * w;
    this.r[i] *= k;
    this.g[i] *= k;
    this.b[i] *= k;
  }

  /** Visit every pixel whose centre lies within the box, with its index. */
  box(x0: number, y0: number, x1: number, y1: number, fn: (i: number, x: number, y: number) => void): void {
    const xa = Math.max(0, Math.floor(x0));
    const ya = Math.max(0, Math.floor(y0));
    const xb = Math.min(this.width - 1, Math.ceil(x1));
    const yb = Math.min(this.height - 1, Math.ceil(y1));
    for (let y = ya; y <= yb; y++) for (let x = xa; x <= xb; x++) fn(y * this.width + x, x + 0.5, y + 0.5);
  }

  /** Pixels covered by a thick segment, with anti-aliased coverage 0..1. */
  segment(a: Pt, b: Pt, width: number, fn: (i: number, coverage: number) => void): void {
    const h = width / 2 + 1;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len2 = dx * dx + dy * dy || 1;
    this.box(
      Math.min(a[0], b[0]) - h,
      Math.min(a[1], b[1]) - h,
      Math.max(a[0], b[0]) + h,
      Math.max(a[1], b[1]) + h,
      (i, x, y) => {
        const t = Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / len2));
        const d = Math.hypot(x - (a[0] + t * dx), y - (a[1] + t * dy));
        const cover = Math.max(0, Math.min(1, width / 2 + 0.5 - d));
        if (cover > 0) fn(i, cover);
      },
    );
  }

  toPixels(): { width: number; height: number; channels: 3; data: Uint8Array } {
    const n = this.width * this.height;
    const data = new Uint8Array(n * 3);
    for (let i = 0; i < n; i++) {
      data[i * 3] = clamp8(this.r[i]);
      data[i * 3 + 1] = clamp8(this.g[i]);
      data[i * 3 + 2] = clamp8(this.b[i]);
    }
    return { width: this.width, height: this.height, channels: 3, data };
  }
}

function clamp8(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/** Even-odd rule point-in-polygon. */
export function inside(poly: Pt[], x: number, y: number): boolean {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

export function bounds(poly: Pt[]): [number, number, number, number] {
  const xs = poly.map((p) => p[0]);
  const ys = poly.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** A blob's outline: a circle of radius r whose radius wobbles by up to `wobble` (0..1). */
export function blob(rand: () => number, cx: number, cy: number, rx: number, ry: number, wobble: number): Pt[] {
  const k1 = rand() * Math.PI * 2;
  const k2 = rand() * Math.PI * 2;
  const a1 = wobble * (0.5 + rand() * 0.5);
  const a2 = wobble * rand() * 0.5;
  const pts: Pt[] = [];
  for (let s = 0; s < 48; s++) {
    const t = (s / 48) * Math.PI * 2;
    const f = 1 + a1 * Math.sin(2 * t + k1) * 0.5 + a2 * Math.sin(3 * t + k2);
    pts.push([cx + Math.cos(t) * rx * f, cy + Math.sin(t) * ry * f]);
  }
  return pts;
}

/** Distance from (x, y) to a polygon's outline (for soft edges). */
export function edgeDistance(poly: Pt[], x: number, y: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [ax, ay] = poly[j];
    const [bx, by] = poly[i];
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy || 1)));
    best = Math.min(best, Math.hypot(x - ax - t * dx, y - ay - t * dy));
  }
  return best;
}
