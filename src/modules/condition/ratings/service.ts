// POST /v1/condition/paser and /pci (document 3, "Condition ratings"): the request read, the image
// acquired (upload, url or imagery), what it shows found, the rating composed by the engines, and
// the rating kept (usage; a named site's history and, for PCI, its pci). Every outside call runs
// before the one short write at the end.
import { randomUUID } from 'node:crypto';
import { findLocation, locationNotFound } from '#crm/index.ts';
import { inTransaction, type ServiceContext } from '#platform/context.ts';
import { now, zWire } from '#platform/time.ts';
import { compose, type RatingType } from './compose.ts';
import { findingsOf } from './detect.ts';
import { imageRejected, invalidRequest, noPavementVisible, upgradeRequired } from './errors.ts';
import { outlinedJpeg } from './outline.ts';
import { insertRating } from './repo.ts';
import { readRatingRequest } from './request.ts';
import { acquireImage } from './source.ts';

export interface RatingBody {
  fields: Record<string, unknown>;
  file: Buffer | null;
  form: boolean;
}

export async function rateCondition(ctx: ServiceContext, ratingType: RatingType, body: RatingBody) {
  const req = readRatingRequest(body.fields, body.file, body.form);
  const firmId = ctx.auth.firm.id;
  if (req.imagerySource === 'premium' && !ctx.auth.settings.premium_imagery_enabled) throw upgradeRequired();
  if (ratingType === 'paser' && req.pavementType === 'concrete')
    throw invalidRequest('PASER rates asphalt: rate concrete with POST /v1/condition/pci', 'pavement_type');
  const site = req.locationId === null ? null : await findLocation(ctx.database.db, firmId, req.locationId);
  if (req.locationId !== null && !site) throw locationNotFound();

  const acquired = await acquireImage(ctx, req);
  const { findings, pavementFound } = await findingsOf(ctx, req, acquired, ratingType);
  if (!pavementFound) throw noPavementVisible(Math.round(findings.visible_pavement_pct));
  const rated = compose(ratingType, findings, acquired.facts);
  if (!rated)
    throw imageRejected(
      'PASER rates asphalt and this pavement looks like concrete: rate it with POST /v1/condition/pci',
    );
  const ratedAt = now();
  const requestId = `cr_${randomUUID().replace(/-/g, '')}`;
  const { score, label, ...shown } = rated;
  const result = {
    ...shown,
    notes: req.notes,
    location_id: site?.id ?? null,
    request_id: requestId,
    rated_at: zWire(ratedAt),
  };
  await inTransaction(ctx.database, async (trx) => {
    // The site was looked up before the seconds of outside work: one deleted meanwhile is a 404,
    // not a rating pointing at nothing.
    if (site && !(await findLocation(trx, firmId, site.id))) throw locationNotFound();
    await insertRating(trx, {
      firm_id: firmId,
      request_id: requestId,
      rating_type: ratingType,
      location_id: site?.id ?? null,
      user_id: ctx.auth.user.id,
      api_key_id: ctx.auth.keyId,
      score,
      label,
      source: acquired.facts.source,
      result: JSON.stringify(result),
      rated_at: ratedAt,
    });
    // A site's pci is its latest PCI rating; a later rating moves it (and updated_at, for syncs).
    if (site && ratingType === 'pci')
      await trx
        .updateTable('locations')
        .set({ pci: score, updated_at: ratedAt })
        .where('id', '=', site.id)
        .where('firm_id', '=', firmId)
        .execute();
  });
  if (!req.returnImage) return result;
  const jpeg = await outlinedJpeg(acquired.pixels, acquired.outline);
  return { ...result, image: { ...result.image, jpeg_base64: jpeg.toString('base64') } };
}
