// What the image shows: the built-in detector (engines/distress, pixels in, findings out) or, when
// the operator set GROUNDWORK_VISION_URL, the vision endpoint (platform/vision.ts). Both answer
// the same Findings; the endpoint's missing view, quality and confidence are taken as unknown
// (view other, quality fair, confidence 0.5) and said in the limitations.
import sharp from 'sharp';
import type { detectDistresses } from '#engines/distress/index.ts';
import { onEngineThread } from '#platform/engine-thread.ts';
import type { ServiceContext } from '#platform/context.ts';
import { VisionFailed } from '#platform/vision.ts';
import { ratingFailed } from './errors.ts';
import type { Acquired } from './source.ts';
import type { Findings } from './findings.ts';
import type { RatingRequest } from './request.ts';
import type { RatingType } from './compose.ts';

/** The built-in detector, off the event loop (platform/engine-thread.ts). */
const detectOnThread = onEngineThread<typeof detectDistresses>('#engines/distress/index.ts', 'detectDistresses');

/** Ground meters per analysis pixel, when the image has a known scale. */
const analysisScale = (a: Acquired) =>
  a.facts.meters_per_pixel === null ? null : (a.facts.meters_per_pixel * a.facts.width) / a.pixels.width;

export async function findingsOf(
  ctx: ServiceContext,
  req: RatingRequest,
  a: Acquired,
  ratingType: RatingType,
): Promise<{ findings: Findings; pavementFound: boolean }> {
  const metersPerPixel = analysisScale(a);
  const vision = ctx.deps.vision;
  if (vision) {
    const jpeg = await sharp(a.pixels.data, { raw: { width: a.pixels.width, height: a.pixels.height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    try {
      const v = await vision.detect(
        { jpeg, width: a.pixels.width, height: a.pixels.height, metersPerPixel, source: a.facts.source },
        { pavementType: req.pavementType, ratingType },
      );
      const unknown: string[] = [];
      if (v.view === null || v.quality === null || v.confidence === null)
        unknown.push(
          'The vision endpoint did not say how clear the image is; view, quality and confidence are defaults.',
        );
      return {
        pavementFound: v.visible_pavement_pct >= 15,
        findings: {
          visible_pavement_pct: v.visible_pavement_pct,
          pavement_type: req.pavementType === 'auto' ? v.pavement_type : req.pavementType,
          view: v.view ?? 'other',
          quality: v.quality ?? 'fair',
          confidence: v.confidence ?? 0.5,
          distresses: v.distresses,
          limitations: [...v.limitations, ...unknown],
        },
      };
    } catch (err) {
      if (err instanceof VisionFailed) throw ratingFailed(err.message);
      throw err;
    }
  }
  // The pixels are copied to the thread, not moved: the answer's image is drawn from them afterwards.
  const d = await detectOnThread([
    a.pixels,
    { metersPerPixel: metersPerPixel ?? undefined, pavementType: req.pavementType, mask: a.outline ?? undefined },
  ]);
  return {
    pavementFound: d.pavementFound,
    findings: {
      visible_pavement_pct: d.visible_pavement_pct,
      pavement_type: d.pavement_type,
      view: d.view,
      quality: d.quality,
      confidence: d.confidence,
      distresses: d.distresses,
      limitations: d.limitations,
    },
  };
}
