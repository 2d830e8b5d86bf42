// The built-in paved-surface detector (docs/measurement-detector.md): raw pixels of a top-down,
// north-up aerial image and its scale in; paved regions, painted lines and inferred stalls out, in
// the image's pixel coordinates. Pure apart from OpenCV's WebAssembly heap, which every call frees
// before it returns.
import { type Cv, loadCv, MatScope } from '#engines/distress/cv.ts';
import { features } from './features.ts';
import { paintMask, traceLines } from './paint.ts';
import { inferStalls } from './stalls.ts';
import { surfaceMasks, traceSurfaces } from './surfaces.ts';
import type { PavedFindings, PavedOptions, RawPixels } from './types.ts';

export async function detectPaved(pixels: RawPixels, options: PavedOptions): Promise<PavedFindings> {
  checkAerialInput(pixels, options);
  const { cv } = await loadCv();
  const s = new MatScope(cv);
  try {
    return run(cv, s, pixels, options.metersPerPixel);
  } finally {
    s.release();
  }
}

/** The RangeError an aerial detector (this one, engines/landscape) throws for pixels or a scale it cannot read. */
export function checkAerialInput(p: RawPixels, o: { metersPerPixel: number }): void {
  if (!Number.isInteger(p.width) || !Number.isInteger(p.height) || p.width < 1 || p.height < 1)
    throw new RangeError('width and height must be positive integers');
  if (p.channels !== 3 && p.channels !== 4) throw new RangeError('channels must be 3 or 4');
  if (!(p.data instanceof Uint8Array) || p.data.length !== p.width * p.height * p.channels)
    throw new RangeError('data length must be width × height × channels');
  if (!(o.metersPerPixel > 0) || !Number.isFinite(o.metersPerPixel))
    throw new RangeError('metersPerPixel must be a positive number');
}

function run(cv: Cv, s: MatScope, pixels: RawPixels, mpp: number): PavedFindings {
  const f = features(cv, s, pixels, mpp);
  const paint = paintMask(cv, s, f);
  const masks = surfaceMasks(cv, s, f, paint, mpp);
  const surfaces = [
    ...traceSurfaces(cv, s, masks.asphalt, 'asphalt', mpp),
    ...traceSurfaces(cv, s, masks.concrete, 'concrete', mpp),
  ];
  const lines = traceLines(cv, s, f, paint, masks.paved, mpp);
  return { surfaces, lines, stalls: inferStalls(lines, mpp) };
}
