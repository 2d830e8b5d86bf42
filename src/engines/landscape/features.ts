// Per-pixel features the landscape classes are read from (docs/landscape-detector.md, "How it
// works"): a vegetation index and a texture measure at a ground-meter scale. Colour arithmetic is
// a typed-array loop; filtering is OpenCV.
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
/** The window the texture's RMS is taken over, m. */
export const ROUGH_WINDOW_M = 0.8;
/** Below this local brightness (luma) texture is taken relative to it, not to the dark pixel's own. */
const ROUGH_FLOOR = 40;
/** Darker than this (luma) the chromatic coordinates are noise: nothing is classed. */
export const DARK_MAX = 18;

export interface Features {
  width: number;
  height: number;
  /** ExG − ExR per pixel (−∞ where too dark to tell). */
  vegetation: Float32Array;
  /** 255 where ExG − ExR > VEGETATION_MIN. */
  veg: Mat;
  /** Texture in % of the local brightness: median over ~0.8 m of the luma's departure from its ~1 m median. */
  rough: Uint8Array;
  /** The raw R, G, B, interleaved (3 channels). */
  rgb: Uint8Array;
}

export function features(cv: Cv, s: MatScope, p: RawPixels, mpp: number): Features {
  const { width, height } = p;
  const n = width * height;
  const ch = p.channels;
  const d = p.data;
  const rgb = new Uint8Array(n * 3);
  const vegetation = new Float32Array(n);
  const gray = s.zeros(height, width, cv.CV_8UC1);
  const veg = s.zeros(height, width, cv.CV_8UC1);
  const gd = gray.data;
  const vd = veg.data;
  for (let i = 0, j = 0; i < n; i++, j += ch) {
    const r = d[j];
    const g = d[j + 1];
    const b = d[j + 2];
    rgb[i * 3] = r;
    rgb[i * 3 + 1] = g;
    rgb[i * 3 + 2] = b;
    // ITU-R BT.601 luma in integers.
    const y = (r * 77 + g * 150 + b * 29) >> 8;
    gd[i] = y;
    const sum = r + g + b;
    if (y < DARK_MAX || sum === 0) {
      vegetation[i] = Number.NEGATIVE_INFINITY;
      continue;
    }
    const exg = (2 * g - r - b) / sum;
    const exr = (1.4 * r - g) / sum;
    vegetation[i] = exg - exr;
    if (vegetation[i] > VEGETATION_MIN) vd[i] = 255;
  }
  return { width, height, vegetation, veg, rough: roughness(cv, s, gray, mpp), rgb };
}

/**
 * Texture at a ground-meter scale: lawn is smooth there (grain and mowing stripes), tree and shrub
 * crowns are lumpy (clumps of leaves and the shade between them, 0.1–0.6 m). Each pixel's luma is
 * compared with its median over ~1 m (a median keeps step edges, so the edge of a lawn or a shadow
 * is not "rough"), the departure taken relative to the local brightness, and the texture is the
 * median of that over ~0.8 m: a median, not a mean, so a crown's texture does not spill onto the
 * lawn around it (a pixel is rough only when most of its window is), and the crown's edge stays
 * where it is.
 */
function roughness(cv: Cv, s: MatScope, gray: Mat, mpp: number): Uint8Array {
  const median = s.mat();
  cv.medianBlur(gray, median, oddPx(1.0, mpp, 5, 15));
  const g = gray.data;
  const m = median.data;
  const dep = s.zeros(gray.rows, gray.cols, cv.CV_8UC1);
  const d = dep.data;
  // In % of the local brightness: a dark evergreen's clumps differ by fewer grey levels than a
  // bright deciduous crown's, and a sunlit lawn's grain by more than a shaded one's.
  for (let i = 0; i < g.length; i++)
    d[i] = Math.min(255, Math.round((100 * Math.abs(g[i] - m[i])) / Math.max(m[i], ROUGH_FLOOR)));
  const out = s.mat();
  cv.medianBlur(dep, out, oddPx(ROUGH_WINDOW_M, mpp, 3, 11));
  return out.data.slice();
}
