// The built-in distress detector (docs/condition.md, "The built-in distress detector"): decoded pixels in, findings out.
// Pure apart from OpenCV's WebAssembly heap, which every call frees before it returns.
import { background, closing, type Crack, findCracks, smoothGray } from './cracks.ts';
import { type Ctx, kernelPx, type Region } from './context.ts';
import { type Cv, loadCv, type Mat, MatScope } from './cv.ts';
import { confidence, judgeQuality, judgeView, whereText } from './describe.ts';
import { findPatches, patchSeverity } from './patches.ts';
import { findPavement } from './pavement.ts';
import { findPotholes } from './potholes.ts';
import { findRaveling, RAVEL_ROUGH, roughnessMap } from './raveling.ts';
import {
  DEFAULT_VIEW_WIDTH_M,
  DENSITY_UNIT,
  type DetectionResult,
  type DetectOptions,
  type Distress,
  type DistressType,
  MAX_ANALYSIS_SIDE,
  MIN_PAVEMENT_PCT,
  MIN_RATED_PX,
  type PavementType,
  type RawPixels,
  type Severity,
} from './types.ts';

const SQFT_PER_M2 = 10.7639;
const FT_PER_M = 3.28084;
/** Coarser than this (2 cm per pixel) the 5 cm texture window is under 3 pixels: raveling is not judged. */
const MAX_TEXTURE_MPP = 0.02;
/** Smallest density worth reporting per unit: less is noise at screening level. */
const MIN_DENSITY: Record<DistressType, number> = {
  alligator_cracking: 0.5,
  block_cracking: 0.5,
  longitudinal_transverse_cracking: 0.5,
  potholes: 0.05,
  patching: 0.5,
  weathering_raveling: 2,
};

export async function detectDistresses(pixels: RawPixels, options: DetectOptions = {}): Promise<DetectionResult> {
  validate(pixels);
  const { cv } = await loadCv();
  const s = new MatScope(cv);
  try {
    return run(cv, s, pixels, options);
  } finally {
    s.release();
  }
}

function validate(p: RawPixels): void {
  if (!Number.isInteger(p.width) || !Number.isInteger(p.height) || p.width < 1 || p.height < 1)
    throw new RangeError('width and height must be positive integers');
  if (p.channels !== 3 && p.channels !== 4) throw new RangeError('channels must be 3 or 4');
  if (p.data.length !== p.width * p.height * p.channels)
    throw new RangeError('data length must be width × height × channels');
}

function toRgb(cv: Cv, s: MatScope, p: RawPixels): { rgb: Mat; scale: number } {
  const input = s.track(cv.matFromArray(p.height, p.width, p.channels === 4 ? cv.CV_8UC4 : cv.CV_8UC3, p.data));
  let rgb = input;
  if (p.channels === 4) {
    rgb = s.mat();
    cv.cvtColor(input, rgb, cv.COLOR_RGBA2RGB);
  }
  const scale = Math.min(1, MAX_ANALYSIS_SIDE / Math.max(p.width, p.height));
  if (scale < 1) {
    const small = s.mat();
    cv.resize(rgb, small, new cv.Size(Math.round(p.width * scale), Math.round(p.height * scale)), 0, 0, cv.INTER_AREA);
    return { rgb: small, scale };
  }
  return { rgb, scale };
}

function laplacianVariance(cv: Cv, s: MatScope, gray: Mat, pavement: Mat): number {
  const lap = s.mat();
  cv.Laplacian(gray, lap, cv.CV_32F);
  const mean = s.mat();
  const std = s.mat();
  cv.meanStdDev(lap, mean, std, pavement);
  return std.data64F[0] ** 2;
}

function run(cv: Cv, s: MatScope, pixels: RawPixels, options: DetectOptions): DetectionResult {
  const scaleAssumed = !(options.metersPerPixel && options.metersPerPixel > 0);
  const givenMpp = scaleAssumed ? DEFAULT_VIEW_WIDTH_M / pixels.width : (options.metersPerPixel as number);
  const { rgb, scale } = toRgb(cv, s, pixels);
  const mpp = givenMpp / scale;
  const found = findPavement(cv, s, rgb, options.mask, scale, mpp);
  const visible = found.ratedPx > 0 ? (found.pavementPx / found.ratedPx) * 100 : 0;
  const pavementFound = visible >= MIN_PAVEMENT_PCT && found.ratedPx >= MIN_RATED_PX;
  const lapVar = laplacianVariance(cv, s, found.gray, found.pavement);
  const quality = judgeQuality(Math.min(pixels.width, pixels.height), found.median, lapVar);
  const pavementType: PavementType =
    options.pavementType && options.pavementType !== 'auto'
      ? options.pavementType
      : found.median > 150
        ? 'concrete'
        : 'asphalt';
  const limitations = [
    'Screening-level estimate from classic image analysis of one image; confirm on site before specifying work.',
    'Distresses that need height or context (rutting, depressions, shoving, edge cracking, bleeding) are not detected.',
  ];
  const base = {
    visible_pavement_pct: round(visible, 1),
    pavement_type: pavementType,
    view: judgeView(pavementFound, options.metersPerPixel),
    quality,
    meters_per_pixel: givenMpp,
    scale_assumed: scaleAssumed,
  };
  if (found.ratedPx < MIN_RATED_PX) {
    limitations.push(
      `The rated area is too small to rate (${found.ratedPx} pixels at analysis size; at least ${MIN_RATED_PX} are needed).`,
    );
    return { ...base, pavementFound, confidence: 0.05, distresses: [], limitations };
  }
  if (!pavementFound) {
    limitations.push(
      `Only ${round(visible, 1)}% of the rated area looks like pavement (at least ${MIN_PAVEMENT_PCT}% is needed).`,
    );
    return { ...base, pavementFound, confidence: 0.05, distresses: [], limitations };
  }
  const ctx: Ctx = {
    cv,
    s,
    width: rgb.cols,
    height: rgb.rows,
    mpp,
    gray: found.gray,
    pavement: found.pavement,
    paint: found.paint,
    median: found.median,
    pavementPx: found.pavementPx,
  };
  const smooth = smoothGray(ctx);
  const holes = findPotholes(ctx, smooth);
  const exclude = s.mat();
  cv.bitwise_or(holes.mask, found.paint, exclude);
  cv.dilate(exclude, exclude, s.kernel(cv.MORPH_ELLIPSE, 7));
  const bg = background(ctx);
  const closed = closing(ctx, smooth);
  const rough = roughnessMap(ctx, bg);
  const raveling = findRaveling(ctx, rough, exclude, mpp <= MAX_TEXTURE_MPP);
  const patchFinding = findPatches(ctx, bg, smooth, exclude, rough, RAVEL_ROUGH);
  const crackExclude = s.mat();
  // A raveled zone's border is pitted too: leave out 3 cm around it.
  cv.dilate(raveling.mask, crackExclude, s.kernel(cv.MORPH_RECT, kernelPx(ctx, 0.06, 3, 31)));
  cv.bitwise_or(exclude, crackExclude, crackExclude);
  cv.bitwise_or(patchFinding.outlines, crackExclude, crackExclude);
  const cracks = findCracks(ctx, bg, smooth, closed, crackExclude);

  const groups = new Map<string, { type: DistressType; severity: Severity; regions: Region[] }>();
  const add = (type: DistressType, severity: Severity, r: Region) => {
    const key = `${type}/${severity}`;
    const g = groups.get(key) ?? { type, severity, regions: [] };
    g.regions.push(r);
    groups.set(key, g);
  };
  for (const c of cracks.cracks) add(crackType(c), c.severity, c);
  for (const p of holes.potholes) add('potholes', p.severity, p);
  for (const p of patchFinding.patches) add('patching', patchSeverity(p, cracks.mask), p);
  if (raveling.region) add('weathering_raveling', raveling.severity, raveling.region);

  const areaM2 = ctx.pavementPx * mpp * mpp;
  const distresses: Distress[] = [];
  for (const g of groups.values()) {
    const amount = g.regions.reduce((a, r) => a + r.amount, 0);
    const unit = DENSITY_UNIT[g.type];
    // Cracks are feet per 100 sq ft; potholes are counted (ASTM D6433), so they are potholes per
    // 100 sq ft, the density the PCI curves read; the rest are shares of the pavement's area.
    const density =
      unit === 'linear'
        ? ((amount * mpp * FT_PER_M) / (areaM2 * SQFT_PER_M2)) * 100
        : unit === 'pothole_area'
          ? (g.regions.length / (areaM2 * SQFT_PER_M2)) * 100
          : (amount / ctx.pavementPx) * 100;
    if (density < MIN_DENSITY[g.type]) continue;
    distresses.push({
      type: g.type,
      severity: g.severity,
      density_pct: round(unit === 'area' ? Math.min(100, density) : density, 2),
      density_unit: unit,
      where: whereText(g.regions, ctx.width, ctx.height),
    });
  }
  distresses.sort((a, b) => b.density_pct - a.density_pct);

  if (scaleAssumed)
    limitations.push(
      `No scale was given: the image was taken to span ${DEFAULT_VIEW_WIDTH_M} m (10 ft) across, so crack widths and linear densities are approximate.`,
    );
  if (mpp > 0.005)
    limitations.push(
      `At ${round(mpp * 100, 1)} cm per pixel, cracks narrower than about ${Math.round(mpp * 1000)} mm (one pixel) may not be seen.`,
    );
  if (mpp > MAX_TEXTURE_MPP)
    limitations.push(
      `At ${round(mpp * 100, 1)} cm per pixel the surface texture cannot be seen: weathering and raveling are not judged.`,
    );
  if (visible < 60) limitations.push(`Only ${round(visible, 1)}% of the rated area is visible pavement.`);
  const softPct = ((holes.softDarkPx + patchFinding.softPx) / ctx.pavementPx) * 100;
  if (softPct >= 5)
    limitations.push(
      `Shadows or stains cover about ${Math.round(softPct)}% of the pavement; cracks in them are harder to see.`,
    );
  if ((found.paintPx / found.pavementPx) * 100 >= 1)
    limitations.push('Paint markings were left out of crack and patch detection.');
  if (pavementType === 'concrete')
    limitations.push(
      'Concrete: distresses are reported with asphalt names; joint and slab distresses are not detected.',
    );
  return {
    ...base,
    pavementFound,
    confidence: confidence(quality, visible, scaleAssumed, pavementType),
    distresses,
    limitations,
  };
}

function crackType(c: Crack): DistressType {
  return c.kind === 'alligator'
    ? 'alligator_cracking'
    : c.kind === 'block'
      ? 'block_cracking'
      : 'longitudinal_transverse_cracking';
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
