// Crews: make, read, list and change them (docs/api-decisions.md, "Operations: crews"). Every call
// needs crew scheduling on; writes need a schedule editor. A crew's foreman is always one of its
// members; member ids that are not current users of the workspace are 404 naming them.
import type { Executor } from '#db/dialect.ts';
import { updateChanged } from '#db/update-changed.ts';
import type { Crew } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { conflict, notFound } from '#platform/errors.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { assertCrews } from '../access.ts';
import { crewNamed, findCrew, listCrews as listRows, membersOf, replaceMembers, usersAmong } from './repo.ts';
import type { CreateCrewInput, CrewObject, UpdateCrewInput } from './schemas.ts';
import { crewObject } from './serialize.ts';

export const DEFAULT_CREW_COLOR = '#2563eb';
export const crewNotFound = () => notFound('Crew not found');

async function withMembers(db: Executor, row: Crew): Promise<CrewObject> {
  return crewObject(row, (await membersOf(db, [row.id])).get(row.id) ?? []);
}

async function assertUsers(db: Executor, firmId: number, ids: readonly number[]): Promise<void> {
  const found = await usersAmong(db, firmId, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw notFound('User not found', {
      message: `No current user of this workspace has id ${missing.join(', ')}`,
      user_ids: missing,
    });
}

async function assertNameFree(db: Executor, firmId: number, name: string, exceptId?: number): Promise<void> {
  const holder = await crewNamed(db, firmId, name, exceptId);
  if (holder)
    throw conflict('A crew with that name already exists', {
      code: 'name_taken',
      message: `Crew ${holder.id} is called "${holder.name}"`,
      crew_id: holder.id,
    });
}

/** The members with the foreman among them. */
function membersWith(ids: readonly number[], foreman: number | null | undefined): number[] {
  return foreman != null && !ids.includes(foreman) ? [...ids, foreman] : [...ids];
}

export async function createCrew(ctx: ServiceContext, input: CreateCrewInput): Promise<CrewObject> {
  assertCrews(ctx, true);
  const firmId = ctx.auth.firm.id;
  const name = input.name.trim();
  const members = membersWith(input.member_user_ids ?? [], input.foreman_user_id);
  return inWorkspaceTransaction(ctx, async (trx) => {
    await assertNameFree(trx, firmId, name);
    await assertUsers(trx, firmId, members);
    const at = now();
    const row = await trx
      .insertInto('crews')
      .values({
        firm_id: firmId,
        name,
        color: (input.color ?? DEFAULT_CREW_COLOR).toLowerCase(),
        active: 1,
        foreman_user_id: input.foreman_user_id ?? null,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await replaceMembers(trx, firmId, row.id, members, at);
    return withMembers(trx, row);
  });
}

export async function getCrew(ctx: ServiceContext, id: number): Promise<CrewObject> {
  assertCrews(ctx, false);
  const row = await findCrew(ctx.database.db, ctx.auth.firm.id, id);
  if (!row) throw crewNotFound();
  return withMembers(ctx.database.db, row);
}

export async function listCrews(ctx: ServiceContext, active: boolean, page: Page) {
  assertCrews(ctx, false);
  const db = ctx.database.db;
  const { rows, total } = await listRows(db, ctx.auth.firm.id, active, page);
  const members = await membersOf(
    db,
    rows.map((r) => r.id),
  );
  return listEnvelope(
    rows.map((r) => crewObject(r, members.get(r.id) ?? [])),
    total,
    page,
  );
}

export async function updateCrew(ctx: ServiceContext, id: number, input: UpdateCrewInput): Promise<CrewObject> {
  assertCrews(ctx, true);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = await findCrew(trx, firmId, id);
    if (!row) throw crewNotFound();
    const changes: Partial<Crew> = {};
    if (input.name !== undefined && input.name.trim() !== row.name) {
      await assertNameFree(trx, firmId, input.name.trim(), id);
      changes.name = input.name.trim();
    }
    if (input.color !== undefined) changes.color = input.color.toLowerCase();
    if (input.active !== undefined) changes.active = input.active ? 1 : 0;
    if (input.foreman_user_id !== undefined) changes.foreman_user_id = input.foreman_user_id;
    const at = now();
    let membersChanged = false;
    if (input.member_user_ids !== undefined || input.foreman_user_id != null) {
      const current = (await membersOf(trx, [id])).get(id)?.map((m) => m.id) ?? [];
      const foreman = input.foreman_user_id !== undefined ? input.foreman_user_id : row.foreman_user_id;
      const members = membersWith(input.member_user_ids ?? current, foreman);
      await assertUsers(trx, firmId, members);
      membersChanged = members.length !== current.length || members.some((m) => !current.includes(m));
      if (membersChanged) await replaceMembers(trx, firmId, id, members, at);
    }
    await updateChanged(trx, 'crews', row, changes, { stamp: { updated_at: at }, touch: membersChanged });
    return withMembers(trx, (await findCrew(trx, firmId, id))!);
  });
}
