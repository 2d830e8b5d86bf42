// Finding the pavement: grey, low-saturation pixels, leaving out vegetation (green dominant),
// sky (blue dominant and bright) and paint (much brighter than the pavement, or saturated yellow),
// cleaned by a morphological open/close and restricted to the caller's polygon. Paint is kept
// as pavement (it lies on the surface) but in its own mask, so later stages ignore it.
import type { Cv, Mat, MatScope } from './cv.ts';

export interface PavementFinding {
  pavement: Mat;
  paint: Mat;
  gray: Mat;
  median: number;
  pavementPx: number;
  ratedPx: number;
  paintPx: number;
}

/** Per-pixel colour class (typed-array statistics): 0 other, 1 grey, 2 paint candidate (decided after the median). */
function classify(rgb: Uint8Array, n: number, grey: Uint8Array, yellow: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    const r = rgb[i * 3];
    const g = rgb[i * 3 + 1];
    const b = rgb[i * 3 + 2];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const chroma = max - min;
    // Grey: chroma small against brightness (asphalt, concrete, shadows and cracks on them).
    if (chroma <= Math.max(18, 0.2 * max)) grey[i] = 1;
    // Yellow paint: bright red and green, little blue.
    else if (r > 140 && g > 110 && b < g - 50 && Math.abs(r - g) < 70) yellow[i] = 1;
  }
}

function median(hist: Uint32Array, total: number): number {
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v];
    if (acc * 2 >= total) return v;
  }
  return 128;
}

export function findPavement(
  cv: Cv,
  s: MatScope,
  rgb: Mat,
  polygon: [number, number][] | undefined,
  scale: number,
  mpp: number,
): PavementFinding {
  const w = rgb.cols;
  const h = rgb.rows;
  const n = w * h;
  const gray = s.mat();
  cv.cvtColor(rgb, gray, cv.COLOR_RGB2GRAY);
  const greyMask = s.zeros(h, w, cv.CV_8UC1);
  const yellow = new Uint8Array(n);
  const grey01 = new Uint8Array(n);
  classify(rgb.data, n, grey01, yellow);
  const gd = gray.data;
  const hist = new Uint32Array(256);
  let greyCount = 0;
  for (let i = 0; i < n; i++) {
    if (grey01[i]) {
      hist[gd[i]]++;
      greyCount++;
    }
  }
  const med = median(hist, greyCount);
  // White paint: grey but far brighter than the pavement around it.
  const whiteAbove = Math.max(med + 60, Math.min(200, med * 1.6));
  const paint = s.zeros(h, w, cv.CV_8UC1);
  const pd = paint.data;
  const gm = greyMask.data;
  for (let i = 0; i < n; i++) {
    const isPaint = yellow[i] === 1 || (grey01[i] === 1 && gd[i] >= whiteAbove);
    if (isPaint) pd[i] = 255;
    if (grey01[i] || isPaint) gm[i] = 255;
  }
  // Close small gaps (dark specks, crack edges with a colour cast), then drop isolated grey
  // specks in grass or gravel: anything narrower than about 5 cm is not a pavement area.
  const k = Math.max(3, Math.min(21, Math.round(0.05 / mpp) | 1));
  const kernel = s.kernel(cv.MORPH_RECT, k);
  cv.morphologyEx(greyMask, greyMask, cv.MORPH_CLOSE, kernel);
  cv.morphologyEx(greyMask, greyMask, cv.MORPH_OPEN, kernel);
  // Paint is a band at least 10 cm wide; bright aggregate grains on a light patch are not.
  cv.morphologyEx(paint, paint, cv.MORPH_OPEN, s.kernel(cv.MORPH_RECT, Math.max(3, Math.round(0.03 / mpp) | 1)));
  const rated = s.zeros(h, w, cv.CV_8UC1);
  if (polygon && polygon.length >= 3) {
    const pts = s.track(
      cv.matFromArray(
        polygon.length,
        1,
        cv.CV_32SC2,
        polygon.flatMap(([x, y]) => [Math.round(x * scale), Math.round(y * scale)]),
      ),
    );
    const v = s.track(new cv.MatVector());
    v.push_back(pts);
    cv.fillPoly(rated, v, [255, 255, 255, 255]);
  } else {
    rated.setTo([255, 255, 255, 255]);
  }
  const pavement = s.mat();
  cv.bitwise_and(greyMask, rated, pavement);
  cv.bitwise_and(paint, pavement, paint);
  const ratedPx = cv.countNonZero(rated);
  const pavementPx = cv.countNonZero(pavement);
  const paintPx = cv.countNonZero(paint);
  // The working grey image: paint (and a 2-px rim) and everything off the pavement become the
  // median, so neither makes edges, dark gaps between bright lines, or tone regions.
  const paintRim = s.mat();
  cv.dilate(paint, paintRim, s.kernel(cv.MORPH_ELLIPSE, 5));
  const pv = pavement.data;
  const pr = paintRim.data;
  for (let i = 0; i < n; i++) if (!pv[i] || pr[i]) gd[i] = med;
  return { pavement, paint, gray, median: med, pavementPx, ratedPx, paintPx };
}
