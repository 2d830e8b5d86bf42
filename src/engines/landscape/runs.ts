// Connected pieces of a mask as runs (stretches of a row), for the passes over pieces in classes.ts
// and crowns.ts. A mask here is mostly large regions, a few runs a row, so labelling the runs
// (union-find on runs that touch between neighbouring rows) and then working run by run costs far
// less than a label per pixel. Labels are numbered from 1 in the order of each piece's first pixel
// (row by row); 0 is no piece.

export interface Pieces {
  /** Pieces + 1 (label 0 is the background), as OpenCV's connectedComponents counts. */
  count: number;
  /** Run r is row `y[r]`, columns `x0[r]` to `x1[r]` (exclusive), in piece `label[r]`; runs are in raster order. */
  runs: number;
  y: Int32Array;
  x0: Int32Array;
  x1: Int32Array;
  label: Int32Array;
  /** Per label: pixel count, bounding box (left, top, right and bottom exclusive) and coordinate sums. */
  area: Int32Array;
  left: Int32Array;
  top: Int32Array;
  right: Int32Array;
  bottom: Int32Array;
  sumX: Float64Array;
  sumY: Float64Array;
}

/**
 * The pieces of the pixels of `mask` that are set (`set` true: nonzero) or clear (`set` false:
 * zero), 4- or 8-connected.
 */
export function pieces(mask: Uint8Array, w: number, h: number, connectivity: 4 | 8, set = true): Pieces {
  let cap = 1024;
  let ry = new Int32Array(cap);
  let rx0 = new Int32Array(cap);
  let rx1 = new Int32Array(cap);
  let n = 0;
  const rowStart = new Int32Array(h + 1);
  for (let y = 0; y < h; y++) {
    rowStart[y] = n;
    const o = y * w;
    let x = 0;
    while (x < w) {
      if (set) while (x < w && mask[o + x] === 0) x++;
      else while (x < w && mask[o + x] !== 0) x++;
      if (x >= w) break;
      const start = x;
      if (set) while (x < w && mask[o + x] !== 0) x++;
      else while (x < w && mask[o + x] === 0) x++;
      if (n === cap) {
        cap *= 2;
        const grow = (a: Int32Array) => {
          const b = new Int32Array(cap);
          b.set(a);
          return b;
        };
        ry = grow(ry);
        rx0 = grow(rx0);
        rx1 = grow(rx1);
      }
      ry[n] = y;
      rx0[n] = start;
      rx1[n] = x;
      n++;
    }
  }
  rowStart[h] = n;
  // Union-find over runs; a root is always the lowest-numbered run of its set.
  const parent = new Int32Array(n);
  for (let r = 0; r < n; r++) parent[r] = r;
  const find = (r: number): number => {
    let root = r;
    while (parent[root] !== root) root = parent[root];
    while (parent[r] !== root) {
      const next = parent[r];
      parent[r] = root;
      r = next;
    }
    return root;
  };
  const reach = connectivity === 8 ? 1 : 0;
  for (let y = 1; y < h; y++) {
    let p = rowStart[y - 1];
    const pEnd = rowStart[y];
    for (let r = rowStart[y]; r < rowStart[y + 1]; r++) {
      const a = rx0[r] - reach;
      const b = rx1[r] + reach;
      // Runs of the row above that end at or before this one's reach start are done with.
      while (p < pEnd && rx1[p] <= a) p++;
      for (let q = p; q < pEnd && rx0[q] < b; q++) {
        const u = find(q);
        const v = find(r);
        if (u < v) parent[v] = u;
        else if (v < u) parent[u] = v;
      }
    }
  }
  const label = new Int32Array(n);
  let count = 1;
  for (let r = 0; r < n; r++) {
    const root = find(r);
    label[r] = root === r ? count++ : label[root];
  }
  const area = new Int32Array(count);
  const left = new Int32Array(count).fill(w);
  const top = new Int32Array(count).fill(h);
  const right = new Int32Array(count);
  const bottom = new Int32Array(count);
  const sumX = new Float64Array(count);
  const sumY = new Float64Array(count);
  for (let r = 0; r < n; r++) {
    const k = label[r];
    const a = rx0[r];
    const b = rx1[r];
    const y = ry[r];
    const len = b - a;
    area[k] += len;
    if (a < left[k]) left[k] = a;
    if (b > right[k]) right[k] = b;
    if (y < top[k]) top[k] = y;
    if (y + 1 > bottom[k]) bottom[k] = y + 1;
    sumX[k] += ((a + b - 1) * len) / 2;
    sumY[k] += y * len;
  }
  return { count, runs: n, y: ry, x0: rx0, x1: rx1, label, area, left, top, right, bottom, sumX, sumY };
}

/** Sets (`value`) the pixels of the pieces whose `chosen` entry is nonzero. */
export function paint(p: Pieces, w: number, out: Uint8Array, chosen: Uint8Array, value: number): void {
  for (let r = 0; r < p.runs; r++) if (chosen[p.label[r]]) out.fill(value, p.y[r] * w + p.x0[r], p.y[r] * w + p.x1[r]);
}

/** A label per pixel (0 off every piece). */
export function labelImage(p: Pieces, w: number, h: number): Int32Array {
  const out = new Int32Array(w * h);
  for (let r = 0; r < p.runs; r++) out.fill(p.label[r], p.y[r] * w + p.x0[r], p.y[r] * w + p.x1[r]);
  return out;
}
