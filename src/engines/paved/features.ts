// Per-pixel features every later stage reads (docs/measurement-detector.md, "How it works"): grey
// level, a grey (low-chroma) flag, a yellowness channel, the tone (grey level median-filtered over
// about half a meter, which paint lines and noise do not move) and the white and yellow top-hats
// (brightness above the surroundings for anything narrower than PAINT_MAX_WIDTH_M). Colour
// classification is a typed-array loop; filtering is OpenCV.
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import type { RawPixels } from './types.ts';

/** Painted lines are at most this wide (a 4–6 in line is 0.10–0.15 m; wide lines and old double coats up to 0.3). */
export const PAINT_MAX_WIDTH_M = 0.3;

export interface Features {
  width: number;
  height: number;
  gray: Mat;
  /** 255 where the pixel is grey: chroma small against its brightness (asphalt, concrete, white paint, shadows on them). */
  grey: Mat;
  /** Chroma (max − min of R, G, B) per pixel. */
  chroma: Uint8Array;
  tone: Mat;
  /** Grey level above the local background for structures narrower than the paint kernel. */
  whiteHat: Mat;
  /** Yellowness (min(R, G) − B for warm pixels) above the local background, the same way. */
  yellowHat: Mat;
}

/** Odd pixel count covering `meters` at this scale, within [min, max]. */
export function oddPx(meters: number, mpp: number, min: number, max: number): number {
  const k = Math.max(min, Math.min(max, Math.round(meters / mpp)));
  return k % 2 === 0 ? k + 1 : k;
}

export function features(cv: Cv, s: MatScope, p: RawPixels, mpp: number): Features {
  const { width, height } = p;
  const n = width * height;
  const ch = p.channels;
  const d = p.data;
  const gray = s.zeros(height, width, cv.CV_8UC1);
  const grey = s.zeros(height, width, cv.CV_8UC1);
  const yellow = s.zeros(height, width, cv.CV_8UC1);
  const chroma = new Uint8Array(n);
  const gd = gray.data;
  const ed = grey.data;
  const yd = yellow.data;
  for (let i = 0, j = 0; i < n; i++, j += ch) {
    const r = d[j];
    const g = d[j + 1];
    const b = d[j + 2];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    // ITU-R BT.601 luma in integers.
    gd[i] = (r * 77 + g * 150 + b * 29) >> 8;
    chroma[i] = max - min;
    if (max - min <= Math.max(16, 0.16 * max)) ed[i] = 255;
    // Yellow paint is warm: red at least green (give or take), blue under both. Grass and the
    // greenish blur of a lot's edge against it (green over red) are not.
    if (r + 5 >= g && b < r && b < g) yd[i] = Math.min(r, g) - b;
  }
  const tone = s.mat();
  cv.medianBlur(gray, tone, oddPx(0.5, mpp, 3, 5));
  // A top-hat (image minus its opening) keeps what is brighter than its surroundings and narrower
  // than the kernel: paint lines, not roofs or concrete pads.
  const k = s.kernel(cv.MORPH_RECT, oddPx(PAINT_MAX_WIDTH_M * 1.6, mpp, 3, 15));
  const whiteHat = s.mat();
  const yellowHat = s.mat();
  const opened = s.mat();
  cv.morphologyEx(gray, opened, cv.MORPH_OPEN, k);
  cv.subtract(gray, opened, whiteHat);
  cv.morphologyEx(yellow, opened, cv.MORPH_OPEN, k);
  cv.subtract(yellow, opened, yellowHat);
  return { width, height, gray, grey, chroma, tone, whiteHat, yellowHat };
}
