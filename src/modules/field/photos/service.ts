// Photos (document 3, Photos, photo tags, files). An upload follows storage's store-then-record
// pattern (platform/storage/storage.ts): the file (and its upright copy and thumbnail) are stored
// with no transaction open, then the row is inserted in a workspace transaction that checks the
// job, the tags, the plan's photo allowance and the client_uid; when that fails or finds an
// earlier photo with the same client_uid, the objects just stored are deleted again.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Executor } from '#db/dialect.ts';
import { updateChanged } from '#db/update-changed.ts';
import type { Job } from '#db/tables.ts';
import { findVisibleJob, jobNotFound, logJobActivity } from '#crm/index.ts';
import { reportOfWorkspace } from '#operations/index.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { ApiError, badRequest, forbidden, invalidField, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { pageOf } from '#platform/pagination.ts';
import { ObjectTooLarge, asStorageError } from '#platform/storage/errors.ts';
import { recordStored } from '#platform/storage/store-then-record.ts';
import { syncWindow } from '#platform/sync.ts';
import { now, parseTimestamp, storedAt } from '#platform/time.ts';
import { photoTagNotFound } from '#field/photo-tags/service.ts';
import { IMAGE_MAX_BYTES, VIDEO_MAX_BYTES } from './limits.ts';
import { InvalidImage, examineImage } from '#platform/imagery/examine.ts';
import type { Sniffed } from '#platform/imagery/sniff.ts';
import { countPhotos, findPhoto, findPhotoByClientUid, jobGallery, listPhotos, tagsOf, type PhotoRow } from './repo.ts';
import type { PhotoFields, PhotoListInput, PhotoObject, UpdatePhotoInput } from './schemas.ts';

/**
 * Signed links in a photo work for at least an hour and end on a whole hour (so 1 to 2 hours):
 * within one clock hour every read of a photo shows the same links, which a browser can cache.
 */
export const PHOTO_LINK_SECONDS = 3600;
const linkSeconds = (nowMs: number) => {
  const nowSec = Math.floor(nowMs / 1000);
  return Math.ceil((nowSec + PHOTO_LINK_SECONDS) / 3600) * 3600 - nowSec;
};

export const photoNotFound = () => notFound('Photo not found');
export const invalidPhoto = (message?: string) =>
  badRequest('Invalid photo', {
    code: 'invalid_request',
    message: message ?? 'The file is not a JPEG, PNG, WebP, GIF, HEIC image or a phone video',
  });
export const photoTooLarge = (isVideo: boolean) =>
  new ApiError(413, 'Photo too large', {
    code: 'invalid_request',
    message: isVideo
      ? `Videos may be at most ${VIDEO_MAX_BYTES / 1024 / 1024} MB`
      : `Images may be at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB`,
  });

/** Degrees clockwise from north, wrapped to 0 to 359. */
export const wrapHeading = (deg: number) => ((Math.round(deg) % 360) + 360) % 360;

const photoKey = (firmId: number, suffix = '') => `firms/${firmId}/photos/${randomUUID()}${suffix}`;

// ---------------------------------------------------------------------------------------------
// The answer

export async function photoObjects(ctx: ServiceContext, rows: PhotoRow[], base: string): Promise<PhotoObject[]> {
  const tags = await tagsOf(
    ctx.database.db,
    rows.map((r) => r.id),
  );
  const storage = ctx.deps.storage;
  const expiresInSeconds = linkSeconds(ctx.deps.clock.now());
  return Promise.all(
    rows.map(async (p) => {
      const link = (key: string, contentType: string) =>
        storage.signedUrl(key, { expiresInSeconds, contentType, disposition: 'inline' }, base);
      const [url, thumb] = await Promise.all([
        link(p.storage_key, p.content_type),
        p.thumbnail_key === null ? null : link(p.thumbnail_key, 'image/jpeg'),
      ]);
      return {
        id: p.id,
        job_id: p.job_id,
        url: url.url,
        thumbnail_url: thumb?.url ?? null,
        caption: p.caption,
        title: p.title,
        stage: p.stage,
        visibility: p.visibility,
        include_in_report: p.visibility === 'external' && Boolean(p.include_in_report),
        taken_at: p.taken_at,
        taken_by:
          p.taken_by_user_id === null
            ? null
            : { id: p.taken_by_user_id, name: p.by_name ?? '', username: p.by_username, email: p.by_email },
        lat: p.latitude,
        lng: p.longitude,
        compass_heading: p.compass_heading,
        tags: tags.get(p.id) ?? [],
        daily_report_id: p.daily_report_id,
        created_at: p.created_at,
        updated_at: p.updated_at,
      };
    }),
  );
}

async function photoObject(ctx: ServiceContext, row: PhotoRow, base: string): Promise<PhotoObject> {
  return (await photoObjects(ctx, [row], base))[0]!;
}

// ---------------------------------------------------------------------------------------------
// Upload

function limitReached(used: number, limit: number): ApiError {
  return forbidden('Photo limit reached', {
    code: 'photo_limit_reached',
    message: `The plan allows ${limit} photos and ${used} are stored`,
    photos_used: used,
    photos_limit: limit,
    photos_remaining: Math.max(0, limit - used),
  });
}

async function assertRoomForOne(ctx: ServiceContext, db: Executor): Promise<void> {
  const limit = ctx.auth.settings.photo_limit;
  if (limit === null) return;
  const used = await countPhotos(db, ctx.auth.firm.id);
  if (used >= limit) throw limitReached(used, limit);
}

async function visibleJob(ctx: ServiceContext, db: Executor, jobId: number): Promise<Job> {
  const job = await findVisibleJob(db, ctx.auth.firm.id, jobId, ctx.auth.user);
  if (!job) throw jobNotFound();
  return job;
}

/** Checks fields that need no file, before anything is stored (400s and 404s come first). */
export function checkFields(fields: PhotoFields): void {
  if ((fields.latitude === undefined) !== (fields.longitude === undefined))
    throw invalidField(
      fields.latitude === undefined ? 'latitude' : 'longitude',
      'latitude and longitude are required together',
      {
        message: 'Send both latitude and longitude, or neither',
      },
    );
  if (fields.taken_at !== undefined && parseTimestamp(fields.taken_at) === null)
    throw invalidField('taken_at', 'taken_at must be an ISO 8601 timestamp');
}

/** Before the body is read: the job is there and the plan has room (a full plan stores nothing). */
export async function preflightUpload(ctx: ServiceContext, jobId: number): Promise<void> {
  await visibleJob(ctx, ctx.database.db, jobId);
  await assertRoomForOne(ctx, ctx.database.db);
}

async function assertTags(db: Executor, firmId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const found = await db
    .selectFrom('photo_tags')
    .select('id')
    .where('firm_id', '=', firmId)
    .where('id', 'in', unique)
    .execute();
  if (found.length !== unique.length) throw photoTagNotFound();
  return unique;
}

/** A photo taken for a daily report hangs on that report's job (another workspace's report is 404). */
async function assertReportOfJob(db: Executor, firmId: number, reportId: number, jobId: number): Promise<void> {
  const report = await reportOfWorkspace(db, firmId, reportId);
  if (!report) throw notFound('Daily report not found', { field: 'daily_report_id' });
  if (report.job_id !== jobId)
    throw invalidField('daily_report_id', 'daily_report_id is a report of another job', {
      message: `Daily report ${reportId} is for job ${report.job_id}; upload its photos to that job`,
    });
}

/** A file stored under its key, as upload.ts or the url fetch leaves it. */
export interface StoredUpload {
  key: string;
  bytes: number;
  sniffed: Sniffed;
}

/**
 * Streams one upload to storage, refusing more than its kind allows (`tooLarge` says how: the
 * multipart upload's 413, the url form's 422 Image too large).
 */
export async function storeUpload(
  ctx: ServiceContext,
  body: Readable,
  sniffed: Sniffed,
  tooLarge: () => ApiError = () => photoTooLarge(sniffed.kind === 'video'),
): Promise<StoredUpload> {
  const key = photoKey(ctx.auth.firm.id);
  try {
    const { bytes } = await ctx.deps.storage.put(key, body, {
      contentType: sniffed.contentType,
      maxBytes: sniffed.kind === 'video' ? VIDEO_MAX_BYTES : IMAGE_MAX_BYTES,
    });
    return { key, bytes, sniffed };
  } catch (err) {
    if (err instanceof ObjectTooLarge) throw tooLarge();
    throw err;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Removes stored objects (a photo's file and thumbnail), ignoring any already gone. */
export const removeQuietly = (ctx: ServiceContext, keys: (string | null)[]) =>
  Promise.all(
    keys.filter((k): k is string => k !== null).map((k) => ctx.deps.storage.delete(k).catch(() => undefined)),
  );

/**
 * Turns a stored upload into a photo: examines it, stores the upright copy and the thumbnail, and
 * records the row. Answers the photo and whether it is new (false: the client_uid's earlier photo).
 */
export async function recordPhotoUpload(
  ctx: ServiceContext,
  jobId: number,
  upload: StoredUpload,
  fields: PhotoFields,
  base: string,
): Promise<{ data: PhotoObject; created: boolean }> {
  const storage = ctx.deps.storage;
  const firmId = ctx.auth.firm.id;
  const made: (string | null)[] = [upload.key];
  // A concurrent repeat of the same client_uid that lost the race to the unique index.
  const raceLost = new ApiError(409, 'client_uid taken');
  let result: { id: number; created: boolean };
  try {
    let displayKey = upload.key;
    let contentType = upload.sniffed.contentType;
    let thumbnailKey: string | null = null;
    let width: number | null = null;
    let height: number | null = null;
    let exifTaken: Date | null = null;
    let gps: { latitude: number; longitude: number } | null = null;
    if (upload.sniffed.kind !== 'video') {
      let data: Buffer;
      try {
        data = await readAll(await storage.get(upload.key));
      } catch (err) {
        throw asStorageError(err);
      }
      let facts: Awaited<ReturnType<typeof examineImage>>;
      try {
        facts = await examineImage(data, upload.sniffed);
      } catch (err) {
        if (err instanceof InvalidImage) throw invalidPhoto('The image could not be decoded');
        throw err;
      }
      ({ width, height, gps } = facts);
      exifTaken = facts.takenAt;
      if (facts.upright) {
        displayKey = photoKey(firmId);
        made.push(displayKey);
        await storage.put(displayKey, facts.upright.data, { contentType: facts.upright.contentType });
        contentType = facts.upright.contentType;
      }
      if (facts.thumbnail) {
        thumbnailKey = photoKey(firmId, '.jpg');
        made.push(thumbnailKey);
        await storage.put(thumbnailKey, facts.thumbnail, { contentType: 'image/jpeg' });
      }
    }
    const visibility = fields.visibility ?? ctx.auth.settings.photo_default_visibility;
    const includeInReport =
      visibility === 'internal'
        ? false
        : (fields.include_in_report ?? ctx.auth.settings.photo_include_in_report_default);
    const takenAt =
      (fields.taken_at !== undefined ? parseTimestamp(fields.taken_at) : null) ??
      (exifTaken ? storedAt(exifTaken.getTime()) : now());
    const position =
      gps ??
      (fields.latitude !== undefined && fields.longitude !== undefined
        ? { latitude: fields.latitude, longitude: fields.longitude }
        : null);

    // Store first, then record: a repeat of an earlier client_uid keeps none of the objects; a new
    // photo keeps what it shows (the upright copy replaces a sideways original).
    const kept = (r: { created: boolean }) =>
      !r.created ? [] : made.filter((k) => displayKey === upload.key || k !== upload.key);
    const record = () =>
      inWorkspaceTransaction(
        ctx,
        async (trx) => {
          if (fields.client_uid !== undefined) {
            const earlier = await findPhotoByClientUid(trx, firmId, fields.client_uid);
            if (earlier) return { id: earlier.id, created: false };
          }
          const job = await visibleJob(ctx, trx, jobId);
          const tagIds = await assertTags(trx, firmId, fields.tag_ids ?? []);
          if (fields.daily_report_id !== undefined)
            await assertReportOfJob(trx, firmId, fields.daily_report_id, job.id);
          await assertRoomForOne(ctx, trx);
          const at = now();
          const photo = await trx
            .insertInto('photos')
            .values({
              firm_id: firmId,
              job_id: job.id,
              storage_key: displayKey,
              thumbnail_key: thumbnailKey,
              content_type: contentType,
              bytes: upload.bytes,
              is_video: upload.sniffed.kind === 'video' ? 1 : 0,
              width,
              height,
              filename: fields.filename?.trim() || null,
              caption: fields.caption?.trim() || null,
              title: fields.title?.trim() || null,
              stage: fields.stage ?? 'general',
              visibility,
              include_in_report: includeInReport ? 1 : 0,
              taken_at: takenAt,
              taken_by_user_id: ctx.auth.user.id,
              latitude: position?.latitude ?? null,
              longitude: position?.longitude ?? null,
              compass_heading: fields.compass_heading === undefined ? null : wrapHeading(fields.compass_heading),
              sort_order: 0,
              client_uid: fields.client_uid ?? null,
              daily_report_id: fields.daily_report_id ?? null,
              created_at: at,
              updated_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          if (tagIds.length > 0)
            await trx
              .insertInto('photo_tag_links')
              .values(tagIds.map((tag_id) => ({ photo_id: photo.id, tag_id })))
              .execute();
          await logJobActivity(trx, {
            firmId,
            jobId: job.id,
            userId: ctx.auth.user.id,
            kind: 'photo_added',
            summary: upload.sniffed.kind === 'video' ? 'Video added' : 'Photo added',
            data: { photo_id: photo.id },
          });
          return { id: photo.id, created: true };
        },
        { onUniqueViolation: () => raceLost },
      );
    result = await recordStored(storage, made, record, kept);
  } catch (err) {
    await removeQuietly(ctx, made);
    // A concurrent repeat of the same client_uid lost the race to the unique index: the winner's photo.
    if (err === raceLost && fields.client_uid !== undefined) {
      const earlier = await findPhotoByClientUid(ctx.database.db, firmId, fields.client_uid);
      if (earlier) return { data: await photoObject(ctx, earlier, base), created: false };
    }
    if (err instanceof ApiError) throw err;
    throw asStorageError(err);
  }
  // Recorded: the objects are the photo's now, whatever reading it back meets.
  return { data: await photoObject(ctx, await findPhotoByIdAnyJob(ctx, result.id), base), created: result.created };
}

async function findPhotoByIdAnyJob(ctx: ServiceContext, id: number): Promise<PhotoRow> {
  const row = await findPhoto(ctx.database.db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw photoNotFound();
  return row;
}

// ---------------------------------------------------------------------------------------------
// Reads, changes, deletes

export async function jobPhotos(ctx: ServiceContext, jobId: number, base: string) {
  await visibleJob(ctx, ctx.database.db, jobId);
  return { data: await photoObjects(ctx, await jobGallery(ctx.database.db, ctx.auth.firm.id, jobId), base) };
}

export async function listWorkspacePhotos(ctx: ServiceContext, q: PhotoListInput, base: string) {
  const page = pageOf(q);
  const { rows, total } = await listPhotos(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    {
      jobId: q.job_id,
      stage: q.stage,
      visibility: q.visibility,
      updatedAfter: syncWindow(q.updated_after, 'microsecond'),
    },
    page.limit,
    page.offset,
  );
  return { data: await photoObjects(ctx, rows, base), pagination: { total, limit: page.limit, offset: page.offset } };
}

export async function getPhoto(ctx: ServiceContext, id: number, base: string) {
  return { data: await photoObject(ctx, await findPhotoByIdAnyJob(ctx, id), base) };
}

export async function updatePhoto(ctx: ServiceContext, id: number, input: UpdatePhotoInput, base: string) {
  const firmId = ctx.auth.firm.id;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const photo = await findPhoto(trx, firmId, id, ctx.auth.user);
    if (!photo) throw photoNotFound();
    const lat = input.latitude !== undefined ? input.latitude : photo.latitude;
    const lng = input.longitude !== undefined ? input.longitude : photo.longitude;
    if ((lat === null) !== (lng === null))
      throw invalidField(lat === null ? 'latitude' : 'longitude', 'latitude and longitude are required together', {
        message: 'Set both latitude and longitude, or clear both',
      });
    const visibility = input.visibility ?? photo.visibility;
    const include = visibility === 'internal' ? false : (input.include_in_report ?? Boolean(photo.include_in_report));
    // tag_ids replaces the photo's tags; the same set again is no change.
    const tagIds = input.tag_ids === undefined ? undefined : await assertTags(trx, firmId, input.tag_ids);
    const current = (await tagsOf(trx, [id])).get(id)?.map((t) => t.id) ?? [];
    const retag =
      tagIds !== undefined && !(tagIds.length === current.length && tagIds.every((t) => current.includes(t)));
    if (retag) {
      await trx.deleteFrom('photo_tag_links').where('photo_id', '=', id).execute();
      if (tagIds.length > 0)
        await trx
          .insertInto('photo_tag_links')
          .values(tagIds.map((tag_id) => ({ photo_id: id, tag_id })))
          .execute();
    }
    await updateChanged(
      trx,
      'photos',
      photo,
      {
        ...(input.caption !== undefined ? { caption: input.caption?.trim() || null } : {}),
        ...(input.title !== undefined ? { title: input.title?.trim() || null } : {}),
        ...(input.stage !== undefined ? { stage: input.stage } : {}),
        ...(input.sort_order !== undefined ? { sort_order: input.sort_order } : {}),
        ...(input.compass_heading !== undefined
          ? { compass_heading: input.compass_heading === null ? null : wrapHeading(input.compass_heading) }
          : {}),
        visibility,
        include_in_report: include ? 1 : 0,
        latitude: lat,
        longitude: lng,
      },
      { stamp: { updated_at: now() }, touch: retag },
    );
  });
  return getPhoto(ctx, id, base);
}

/** Deletes the record, then (after the commit) its stored objects. */
export async function deletePhoto(ctx: ServiceContext, id: number): Promise<void> {
  assertDeletionAllowed(ctx);
  const firmId = ctx.auth.firm.id;
  const keys = await inWorkspaceTransaction(ctx, async (trx) => {
    const photo = await findPhoto(trx, firmId, id, ctx.auth.user);
    if (!photo) throw photoNotFound();
    await trx.deleteFrom('photos').where('id', '=', id).execute();
    return [photo.storage_key, photo.thumbnail_key];
  });
  await removeQuietly(ctx, keys);
}
