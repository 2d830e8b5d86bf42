// Company Library folders (docs/api-decisions.md, Files and the Company Library): a flat list of
// named folders that library files sit in. A name is unique in any case (409 with the folder that
// holds it, as photo tags); a folder holding files is not deleted (409: move or delete them first).
import type { Executor } from '#db/dialect.ts';
import type { LibraryFolder } from '#db/tables.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { conflict } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { nameKey } from '#platform/text.ts';
import { now, zWire } from '#platform/time.ts';
import { folderNotFound } from '#field/files/errors.ts';
import { countFolderFiles } from '#field/files/repo.ts';
import type { CreateLibraryFolderInput, LibraryFolderObject, UpdateLibraryFolderInput } from './schemas.ts';

function folderObject(folder: LibraryFolder, fileCount: number): LibraryFolderObject {
  return {
    id: folder.id,
    name: folder.name,
    file_count: fileCount,
    created_at: zWire(folder.created_at),
    updated_at: zWire(folder.updated_at),
  };
}

async function withCounts(ctx: ServiceContext, db: Executor, folders: LibraryFolder[]) {
  const counts = await countFolderFiles(
    db,
    ctx.auth.firm.id,
    folders.map((f) => f.id),
  );
  return folders.map((f) => folderObject(f, counts.get(f.id) ?? 0));
}

function findFolder(db: Executor, firmId: number, id: number): Promise<LibraryFolder | undefined> {
  return db
    .selectFrom('library_folders')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

async function assertNameFree(ctx: ServiceContext, db: Executor, name: string, exceptId?: number): Promise<void> {
  let query = db
    .selectFrom('library_folders')
    .selectAll()
    .where('firm_id', '=', ctx.auth.firm.id)
    .where('name_key', '=', nameKey(name));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const holder = await query.executeTakeFirst();
  if (holder) {
    const [folder] = await withCounts(ctx, db, [holder]);
    throw conflict('Library folder already exists', {
      code: 'name_taken',
      message: `A library folder named "${holder.name}" already exists`,
      folder,
    });
  }
}

/** Every folder of the workspace, A to Z (a short list: no paging). */
export async function listLibraryFolders(ctx: ServiceContext): Promise<{ data: LibraryFolderObject[] }> {
  const db = ctx.database.db;
  const folders = await db
    .selectFrom('library_folders')
    .selectAll()
    .where('firm_id', '=', ctx.auth.firm.id)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
  return { data: await withCounts(ctx, db, folders) };
}

export async function createLibraryFolder(ctx: ServiceContext, input: CreateLibraryFolderInput) {
  return inWorkspaceTransaction(ctx, async (trx) => {
    const name = input.name.trim();
    await assertNameFree(ctx, trx, name);
    const at = now();
    const folder = await trx
      .insertInto('library_folders')
      .values({ firm_id: ctx.auth.firm.id, name, name_key: nameKey(name), created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { data: folderObject(folder, 0) };
  });
}

export async function updateLibraryFolder(ctx: ServiceContext, id: number, input: UpdateLibraryFolderInput) {
  return inWorkspaceTransaction(ctx, async (trx) => {
    const folder = await findFolder(trx, ctx.auth.firm.id, id);
    if (!folder) throw folderNotFound();
    let changed = folder;
    if (input.name !== undefined) {
      const name = input.name.trim();
      await assertNameFree(ctx, trx, name, id);
      changed = await trx
        .updateTable('library_folders')
        .set({ name, name_key: nameKey(name), updated_at: now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    const [data] = await withCounts(ctx, trx, [changed]);
    return { data: data! };
  });
}

/** Deletes an empty folder; one holding files is 409 Library folder not empty with file_count. */
export async function deleteLibraryFolder(ctx: ServiceContext, id: number): Promise<void> {
  await inWorkspaceTransaction(ctx, async (trx) => {
    const folder = await findFolder(trx, ctx.auth.firm.id, id);
    if (!folder) throw folderNotFound();
    assertDeletionAllowed(ctx);
    const count = (await countFolderFiles(trx, ctx.auth.firm.id, [id])).get(id) ?? 0;
    if (count > 0)
      throw conflict('Library folder not empty', {
        code: 'folder_not_empty',
        message: `The folder holds ${count} file${count === 1 ? '' : 's'}: move them (PATCH /v1/files/{id} folder_id) or delete them first`,
        file_count: count,
      });
    await trx.deleteFrom('library_folders').where('id', '=', id).execute();
  });
}
