// Pin photos (document 3, Site assessments and pins: POST /v1/assessment-pins/{id}/photos). Each
// file (or the url's image) becomes a photo of the pin's job through the photos module's upload
// path (thumbnail, EXIF, client_uid, photo_limit, job activity), then is linked to the pin. A pin
// shows its photos with the same signed links as /v1/photos. A duplicated assessment's pins link
// the same photos; deleting a pin deletes the photos no other pin shows.
import type { Executor } from '#db/dialect.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, conflict } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { photoRows } from '#field/photos/repo.ts';
import type { PhotoFields } from '#field/photos/schemas.ts';
import { receivePhotos } from '#field/photos/receive.ts';
import type { SentPhotos } from '#field/photos/upload.ts';
import {
  photoObjects,
  preflightUpload,
  recordPhotoUpload,
  removeQuietly,
  type StoredUpload,
} from '#field/photos/service.ts';
import { findPin, type PinRow } from './repo.ts';
import type { Pin, PinPhoto } from './schemas.ts';
import { pinObject } from './serialize.ts';
import { pinNotFound } from './errors.ts';

/** The most files one request may add to a pin. */
export const PIN_PHOTOS_PER_REQUEST = 10;

export const tooManyPinPhotos = () =>
  badRequest('Too many photos', {
    code: 'invalid_request',
    message: `Send at most ${PIN_PHOTOS_PER_REQUEST} file parts named photo per request`,
  });
export const clientUidWithMany = () =>
  badRequest('client_uid takes one photo', {
    code: 'invalid_request',
    field: 'client_uid',
    message: 'Send a file with a client_uid in a request of its own',
  });
export const assessmentCompleted = () =>
  conflict('Assessment is completed', {
    code: 'assessment_completed',
    message: 'Reopen the assessment first (POST /v1/site-assessments/{id}/reopen) to add photos to its pins',
  });

/** Each pin's photos in the order they were added, as the pin shows them. */
export async function pinPhotoLists(
  ctx: ServiceContext,
  pinIds: number[],
  base: string,
): Promise<Map<number, PinPhoto[]>> {
  const out = new Map<number, PinPhoto[]>();
  if (pinIds.length === 0) return out;
  const db = ctx.database.db;
  const links = await db
    .selectFrom('assessment_pin_photos')
    .select(['pin_id', 'photo_id'])
    .where('pin_id', 'in', pinIds)
    .orderBy('pin_id')
    .orderBy('position')
    .orderBy('photo_id')
    .execute();
  if (links.length === 0) return out;
  const photoIds = [...new Set(links.map((l) => l.photo_id))];
  const rows = await photoRows(db, ctx.auth.firm.id).where('p.id', 'in', photoIds).execute();
  const objects = await photoObjects(ctx, rows, base);
  const byId = new Map<number, PinPhoto>();
  rows.forEach((row, i) => {
    const o = objects[i]!;
    byId.set(row.id, {
      id: o.id,
      url: o.url,
      thumbnail_url: o.thumbnail_url,
      title: o.title,
      caption: o.caption,
      stage: o.stage,
      visibility: o.visibility,
      is_video: row.is_video === 1,
      taken_at: o.taken_at,
    });
  });
  for (const l of links) {
    const photo = byId.get(l.photo_id);
    if (!photo) continue;
    const list = out.get(l.pin_id) ?? [];
    list.push(photo);
    out.set(l.pin_id, list);
  }
  return out;
}

/** Pins on the wire with their photos. */
export async function pinObjects(ctx: ServiceContext, rows: PinRow[], base: string): Promise<Pin[]> {
  const photos = await pinPhotoLists(
    ctx,
    rows.map((r) => r.id),
    base,
  );
  return rows.map((r) => pinObject(r, photos.get(r.id) ?? []));
}

async function assertOpenFor(db: Executor, pin: PinRow): Promise<void> {
  if (pin.assessment_id === null) return;
  const a = await db
    .selectFrom('site_assessments')
    .select('status')
    .where('id', '=', pin.assessment_id)
    .executeTakeFirst();
  if (a && a.status !== 'open') throw assessmentCompleted();
}

/**
 * Before the body is read: the pin is there (on a job the caller sees), its assessment is open and
 * the plan has room for a photo. Answers the pin.
 */
export async function preflightPinPhotos(ctx: ServiceContext, pinId: number): Promise<PinRow> {
  const pin = await findPin(ctx.database.db, ctx.auth.firm.id, pinId, ctx.auth.user);
  if (!pin) throw pinNotFound();
  await assertOpenFor(ctx.database.db, pin);
  await preflightUpload(ctx, pin.job_id);
  return pin;
}

/** Shows the photo on the pin (after its others); a photo already there stays where it is. */
async function linkPhoto(ctx: ServiceContext, pinId: number, photoId: number): Promise<void> {
  await inWorkspaceTransaction(ctx, async (trx) => {
    const pin = await findPin(trx, ctx.auth.firm.id, pinId, ctx.auth.user);
    if (!pin) throw pinNotFound();
    const there = await trx
      .selectFrom('assessment_pin_photos')
      .select('photo_id')
      .where('pin_id', '=', pinId)
      .where('photo_id', '=', photoId)
      .executeTakeFirst();
    if (there) return;
    const last = await trx
      .selectFrom('assessment_pin_photos')
      .select((eb) => eb.fn.max('position').as('n'))
      .where('pin_id', '=', pinId)
      .executeTakeFirst();
    const at = now();
    await trx
      .insertInto('assessment_pin_photos')
      .values({ pin_id: pinId, photo_id: photoId, position: Number(last?.n ?? 0) + 1, created_at: at })
      .execute();
    await trx.updateTable('assessment_pins').set({ updated_at: at }).where('id', '=', pinId).execute();
  });
}

/**
 * Records each stored file as a photo of the pin's job and links it to the pin, in the order sent.
 * When one fails (the plan's photo allowance, say), the files not yet recorded are deleted and the
 * error goes out; the photos already added stay on the pin.
 */
export async function addPinPhotos(
  ctx: ServiceContext,
  pin: PinRow,
  files: StoredUpload[],
  fields: PhotoFields,
  base: string,
): Promise<{ data: Pin; photo_ids: number[]; created: boolean }> {
  const ids: number[] = [];
  let created = false;
  for (let i = 0; i < files.length; i++) {
    try {
      const result = await recordPhotoUpload(ctx, pin.job_id, files[i]!, fields, base);
      created ||= result.created;
      await linkPhoto(ctx, pin.id, result.data.id);
      ids.push(result.data.id);
    } catch (err) {
      await removeQuietly(
        ctx,
        files.slice(i + 1).map((f) => f.key),
      );
      throw err;
    }
  }
  const row = await findPin(ctx.database.db, ctx.auth.firm.id, pin.id, ctx.auth.user);
  if (!row) throw pinNotFound();
  const [data] = await pinObjects(ctx, [row], base);
  return { data: data!, photo_ids: ids, created };
}

/**
 * In a pin delete's transaction: deletes the pin's photos that no other pin shows and answers
 * their stored objects, to be removed after the commit.
 */
export async function deletePinOnlyPhotos(trx: Executor, firmId: number, pinId: number): Promise<(string | null)[]> {
  const only = await trx
    .selectFrom('assessment_pin_photos as l')
    .innerJoin('photos as ph', 'ph.id', 'l.photo_id')
    .select(['ph.id', 'ph.storage_key', 'ph.thumbnail_key'])
    .where('l.pin_id', '=', pinId)
    .where('ph.firm_id', '=', firmId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('assessment_pin_photos as o')
            .select('o.pin_id')
            .whereRef('o.photo_id', '=', 'l.photo_id')
            .where('o.pin_id', '<>', pinId),
        ),
      ),
    )
    .execute();
  if (only.length === 0) return [];
  await trx
    .deleteFrom('photos')
    .where(
      'id',
      'in',
      only.map((p) => p.id),
    )
    .execute();
  return only.flatMap((p) => [p.storage_key, p.thumbnail_key]);
}

/** A duplicate's pin shows the same photos as the pin it copies. */
export async function copyPinPhotos(trx: Executor, fromPinId: number, toPinId: number): Promise<void> {
  const links = await trx
    .selectFrom('assessment_pin_photos')
    .select(['photo_id', 'position'])
    .where('pin_id', '=', fromPinId)
    .execute();
  if (links.length === 0) return;
  const at = now();
  await trx
    .insertInto('assessment_pin_photos')
    .values(links.map((l) => ({ pin_id: toPinId, photo_id: l.photo_id, position: l.position, created_at: at })))
    .execute();
}

/**
 * POST /v1/assessment-pins/{id}/photos: the pin first (open, its job visible, room for more), then
 * what was sent (several files, but client_uid only with one), then each photo and the pin's links.
 */
export async function uploadPinPhotos(ctx: ServiceContext, pinId: number, sent: SentPhotos, base: string) {
  const pin = await preflightPinPhotos(ctx, pinId);
  const { stored, fields } = await receivePhotos(ctx, sent, (form) => {
    if (form.files.length > 1 && form.fields.client_uid !== undefined) throw clientUidWithMany();
  });
  return addPinPhotos(ctx, pin, stored, fields, base);
}
