// Per-pixel features the landscape classes are read from (docs/landscape-detector.md, "How it
// works"): a vegetation index and a texture measure at a ground-meter scale. Colour arithmetic is
// a typed-array loop; the luma's median is OpenCV's, the texture's median is counted (exactly).
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import { oddPx } from '#engines/paved/features.ts';
import type { RawPixels } from './types.ts';

/**
 * Excess green minus excess red on chromatic coordinates (r, g, b = R, G, B ÷ (R + G + B)):
 * ExG = 2g − r − b, ExR = 1.4r − g, vegetation where ExG − ExR > 0 (Meyer & Neto 2008,
 * "Verification of color vegetation indices for automated crop imaging applications", Computers
 * and Electronics in Agriculture 63(2): 282–293, the index and its zero threshold).
 */
export const VEGETATION_MIN = 0;
/** The window the texture's (second) median is taken over, m. */
export const ROUGH_WINDOW_M = 0.8;
/** Below this local brightness (luma) texture is taken relative to it, not to the dark pixel's own. */
const ROUGH_FLOOR = 40;
/** Darker than this (luma) the chromatic coordinates are noise: nothing is classed. */
export const DARK_MAX = 18;

export interface Features {
  width: number;
  height: number;
  /** 1 where the pixel is darker than DARK_MAX (or black): nothing is classed there. */
  dark: Uint8Array;
  /** 255 where ExG − ExR > VEGETATION_MIN. */
  veg: Uint8Array;
  /**
   * Texture in % of the local brightness (median over ~0.8 m of the luma's departure from its ~1 m
   * median), told only as far as the classes read it: the greatest of `levels` it reaches, else 0.
   */
  rough: Uint8Array;
  /** The raw R, G, B, interleaved (3 channels). */
  rgb: Uint8Array;
}

/**
 * `levels`: the texture thresholds the classes compare with (ascending, at most 3). The median of
 * the texture is only ever compared with them, and a window's median reaches a level exactly when
 * more than half its pixels do, so the second median is counted, not sorted.
 */
export function features(cv: Cv, s: MatScope, p: RawPixels, mpp: number, levels: readonly number[]): Features {
  const { width, height } = p;
  const n = width * height;
  const ch = p.channels;
  const d = p.data;
  let rgb: Uint8Array;
  if (ch === 3) rgb = d;
  else {
    rgb = new Uint8Array(n * 3);
    for (let i = 0, j = 0; i < n * 3; i += 3, j += ch) {
      rgb[i] = d[j];
      rgb[i + 1] = d[j + 1];
      rgb[i + 2] = d[j + 2];
    }
  }
  const dark = new Uint8Array(n);
  const gray = s.zeros(height, width, cv.CV_8UC1);
  const veg = new Uint8Array(n);
  const gd = gray.data;
  const vd = veg;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const r = rgb[j];
    const g = rgb[j + 1];
    const b = rgb[j + 2];
    // ITU-R BT.601 luma in integers.
    const y = (r * 77 + g * 150 + b * 29) >> 8;
    gd[i] = y;
    if (y < DARK_MAX || r + g + b === 0) {
      dark[i] = 1;
      continue;
    }
    // ExG − ExR = (3g − 2.4r − b) ÷ (r + g + b): its sign is that of 15g − 12r − 5b, a whole
    // number; only where that is 0 does the floating-point form decide, as it always did.
    const e = 15 * g - 12 * r - 5 * b;
    if (e > 0 || (e === 0 && vegetationIndex(r, g, b) > VEGETATION_MIN)) vd[i] = 255;
  }
  return { width, height, dark, veg, rough: roughness(cv, s, gray, mpp, levels), rgb };
}

/** ExG − ExR on chromatic coordinates, as Meyer & Neto write it. */
function vegetationIndex(r: number, g: number, b: number): number {
  const sum = r + g + b;
  return (2 * g - r - b) / sum - (1.4 * r - g) / sum;
}

/**
 * Texture at a ground-meter scale: lawn is smooth there (grain and mowing stripes), tree and shrub
 * crowns are lumpy (clumps of leaves and the shade between them, 0.1–0.6 m). Each pixel's luma is
 * compared with its median over ~1 m (a median keeps step edges, so the edge of a lawn or a shadow
 * is not "rough"), the departure taken relative to the local brightness, and the texture is the
 * median of that over ~0.8 m: a median, not a mean, so a crown's texture does not spill onto the
 * lawn around it (a pixel is rough only when most of its window is), and the crown's edge stays
 * where it is. That median is told by counting: the pixels of the window at or over each level,
 * in sums along rows then columns (OpenCV's median repeats the edge pixels outward; so do these).
 */
function roughness(cv: Cv, s: MatScope, gray: Mat, mpp: number, levels: readonly number[]): Uint8Array {
  if (levels.length > 3) throw new RangeError('at most 3 texture levels');
  const w = gray.cols;
  const h = gray.rows;
  const n = w * h;
  const median = s.mat();
  cv.medianBlur(gray, median, oddPx(1.0, mpp, 5, 15));
  const g = gray.data;
  const m = median.data;
  // Each pixel's departure from the median (in % of the local brightness: a dark evergreen's
  // clumps differ by fewer grey levels than a bright deciduous crown's, and a sunlit lawn's grain
  // by more than a shaded one's) as one bit a level, 8 bits apart, so a window's counts add up in
  // one number; a table by (median, luma).
  const [l0 = 256, l1 = 256, l2 = 256] = levels;
  const table = new Int32Array(256 * 256);
  for (let m = 0; m < 256; m++)
    for (let g = 0; g < 256; g++) {
      const v = Math.min(255, Math.round((100 * Math.abs(g - m)) / Math.max(m, ROUGH_FLOOR)));
      table[(m << 8) | g] = (v >= l0 ? 1 : 0) | (v >= l1 ? 0x100 : 0) | (v >= l2 ? 0x10000 : 0);
    }
  const dep = new Int32Array(n);
  for (let i = 0; i < n; i++) dep[i] = table[(m[i] << 8) | g[i]];
  const k = oddPx(ROUGH_WINDOW_M, mpp, 3, 11);
  return medianLevels(dep, w, h, k >> 1, [0, l0, l1, l2]);
}

/**
 * Per pixel, how many of the levels the median of its (2r + 1)² window reaches (as `value[count]`),
 * from `dep` (one bit a level, 8 bits apart): a level is reached when more than half the window
 * holds it. The window's counts are running sums down the columns, then along each row; the edge
 * rows and columns are repeated outward.
 */
function medianLevels(dep: Int32Array, w: number, h: number, r: number, value: number[]): Uint8Array {
  const half = ((2 * r + 1) * (2 * r + 1) + 1) >> 1;
  const [v0, v1, v2, v3] = value;
  const out = new Uint8Array(w * h);
  // col[x]: the sum down column x over the window's rows, kept running from row to row.
  const col = new Int32Array(w);
  for (let x = 0; x < w; x++) {
    let sum = (r + 1) * dep[x];
    for (let y = 1; y <= r; y++) sum += dep[Math.min(y, h - 1) * w + x];
    col[x] = sum;
  }
  // Where the window reaches past the left edge, past neither, past the right edge.
  const a = Math.min(r, w);
  const b = Math.max(a, w - r - 1);
  const last = w - 1;
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let sum = (r + 1) * col[0];
    for (let x = 1; x <= r; x++) sum += col[Math.min(x, last)];
    for (let x = 0; x < w; x++) {
      const reached =
        ((sum & 0xff) >= half ? 1 : 0) + (((sum >> 8) & 0xff) >= half ? 1 : 0) + (sum >> 16 >= half ? 1 : 0);
      out[o + x] = reached === 0 ? v0 : reached === 1 ? v1 : reached === 2 ? v2 : v3;
      if (x < a) sum += col[Math.min(x + r + 1, last)] - col[0];
      else if (x < b) sum += col[x + r + 1] - col[x - r];
      else sum += col[last] - col[Math.max(x - r, 0)];
    }
    if (y + 1 < h) {
      const add = Math.min(y + r + 1, h - 1) * w;
      const drop = Math.max(y - r, 0) * w;
      for (let x = 0; x < w; x++) col[x] += dep[add + x] - dep[drop + x];
    }
  }
  return out;
}
