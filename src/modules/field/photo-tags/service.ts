// Photo tags: the workspace's labels for photos (document 3, Photo, photo tag, file). A name is
// unique in any case; a taken one is 409 with the tag that holds it, as for job tags.
import type { Kysely } from 'kysely';
import type { DB, PhotoTag } from '#db/tables.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { conflict, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import type { CreatePhotoTagInput, UpdatePhotoTagInput } from './schemas.ts';

/** Gray, as the spec has it, for a tag made without a color. */
export const DEFAULT_PHOTO_TAG_COLOR = '#808080';

export const photoTagNotFound = () => notFound('Photo tag not found');

export function photoTagObject(tag: PhotoTag) {
  return { id: tag.id, name: tag.name, color: tag.color, description: tag.description };
}

/** Every tag of the workspace, A to Z (a workspace keeps a short list: no paging). */
export function listPhotoTags(ctx: ServiceContext): Promise<PhotoTag[]> {
  return ctx.database.db
    .selectFrom('photo_tags')
    .selectAll()
    .where('firm_id', '=', ctx.auth.firm.id)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
}

export function findPhotoTag(db: Kysely<DB>, firmId: number, id: number): Promise<PhotoTag | undefined> {
  return db.selectFrom('photo_tags').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
}

async function assertNameFree(db: Kysely<DB>, firmId: number, name: string, exceptId?: number): Promise<void> {
  let query = db
    .selectFrom('photo_tags')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('name_key', '=', nameKey(name));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const holder = await query.executeTakeFirst();
  if (holder) {
    throw conflict('Photo tag already exists', {
      code: 'name_taken',
      message: `A photo tag named "${holder.name}" already exists`,
      tag: photoTagObject(holder),
    });
  }
}

export function createPhotoTag(ctx: ServiceContext, input: CreatePhotoTagInput): Promise<PhotoTag> {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const name = input.name.trim();
    await assertNameFree(trx, firmId, name);
    const at = now();
    return trx
      .insertInto('photo_tags')
      .values({
        firm_id: firmId,
        name,
        name_key: nameKey(name),
        color: (input.color ?? DEFAULT_PHOTO_TAG_COLOR).toLowerCase(),
        description: input.description?.trim() || null,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** Only the fields sent change; description null clears it. */
export function updatePhotoTag(ctx: ServiceContext, id: number, input: UpdatePhotoTagInput): Promise<PhotoTag> {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const tag = await findPhotoTag(trx, firmId, id);
    if (!tag) throw photoTagNotFound();
    const name = input.name?.trim();
    if (name !== undefined) await assertNameFree(trx, firmId, name, id);
    return trx
      .updateTable('photo_tags')
      .set({
        ...(name !== undefined ? { name, name_key: nameKey(name) } : {}),
        ...(input.color !== undefined ? { color: input.color.toLowerCase() } : {}),
        ...(input.description !== undefined ? { description: input.description?.trim() || null } : {}),
        updated_at: now(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** Deleting a tag takes it off every photo and pin that carries it (their links go with it). */
export async function deletePhotoTag(ctx: ServiceContext, id: number): Promise<void> {
  assertDeletionAllowed(ctx);
  const firmId = ctx.auth.firm.id;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const deleted = await trx
      .deleteFrom('photo_tags')
      .where('firm_id', '=', firmId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw photoTagNotFound();
  });
}
