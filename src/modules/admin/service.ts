// Operator provisioning: workspaces, their users and API keys, and partner keys. The admin HTTP
// API, the `groundwork admin` CLI and the demo seed all call these functions.
import type { Static } from '@sinclair/typebox';
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import type { Firm, User } from '#db/tables.ts';
import { flag, type Flag } from '#db/tables/shared.ts';
import { validateBody } from '#platform/ajv.ts';
import { invalidateAuthCache } from '#platform/auth-cache.ts';
import { inTransaction } from '#platform/context.ts';
import { phoneField } from '#platform/email-phone.ts';
import { badRequest, conflict, invalidField, notFound } from '#platform/errors.ts';
import { generateKey } from '#platform/keys.ts';
import { defaultFlags, USER_FLAGS, type Role } from '#platform/permissions.ts';
import { now, zWire, microWire } from '#platform/time.ts';
import { BUILT_IN_STAGES, DEFAULT_JOB_TYPES, DEFAULT_SETTINGS, divisionsOf, jobTypesOf, settingsOf } from '#platform/workspace.ts';
import { listStages } from '#crm/job-stages/repo.ts';
import { applyCatalog, exportCatalog as catalogDocument } from '#estimating/catalog/document.ts';
import { STARTER_CATALOG } from '#seed/starter-catalog.ts';
import { CreateKeyInput, CreatePartnerKeyInput, CreateUserInput, CreateWorkspaceInput, StageInput, UpdateUserInput,
  UpdateWorkspaceInput } from './schemas.ts';

type CreateWorkspace = Static<typeof CreateWorkspaceInput>;
type UpdateWorkspace = Static<typeof UpdateWorkspaceInput>;
type CreateUser = Static<typeof CreateUserInput>;
type UpdateUser = Static<typeof UpdateUserInput>;
type Stage = Static<typeof StageInput>;

function assertTimezone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw badRequest(`timezone must be an IANA time zone such as America/Chicago, got "${tz}"`, { field: 'timezone' });
  }
}

/** Resolved keys are memoised (platform/auth-cache.ts); a committed change must reach them now. */
async function afterwardsForgetKeys<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } finally {
    invalidateAuthCache();
  }
}

const workspaceNotFound = () => notFound('Workspace not found');
const userNotFound = () => notFound('User not found');

async function firmOrThrow(db: Executor, firmId: number): Promise<Firm> {
  const firm = await db.selectFrom('firms').selectAll().where('id', '=', firmId).executeTakeFirst();
  if (!firm) throw workspaceNotFound();
  return firm;
}

// ---- workspaces ----------------------------------------------------------------------------

export function workspaceObject(firm: Firm, stages: Awaited<ReturnType<typeof listStages>>) {
  return {
    firm_id: firm.id,
    name: firm.name,
    plan: firm.plan,
    subscription_status: firm.subscription_status,
    timezone: firm.timezone,
    settings: settingsOf(firm),
    job_types: jobTypesOf(firm),
    divisions: divisionsOf(firm),
    job_stages: stages.map((s) => ({ key: s.key, label: s.label, type: s.type, position: s.position, completed: s.is_completed === 1 })),
    owner_user_id: firm.owner_user_id,
    created_at: zWire(firm.created_at),
    updated_at: zWire(firm.updated_at),
  };
}

async function insertStage(db: Executor, firmId: number, stage: Stage, position: number): Promise<void> {
  if (stage.completed) await db.updateTable('job_stages').set({ is_completed: 0 }).where('firm_id', '=', firmId).execute();
  await db.insertInto('job_stages').values({
    firm_id: firmId, key: stage.key, label: stage.label, type: stage.type, position,
    is_completed: stage.completed ? 1 : 0, created_at: now(),
  }).execute();
}

export async function createWorkspace(database: Database, body: unknown): Promise<{ firm_id: number; owner_user_id: number }> {
  const input = validateBody<CreateWorkspace>(CreateWorkspaceInput, body);
  if (input.timezone) assertTimezone(input.timezone);
  const extra = input.job_stages ?? [];
  const keys = [...BUILT_IN_STAGES.map((s) => s.key as string), ...extra.map((s) => s.key)];
  if (new Set(keys).size !== keys.length) throw badRequest('job_stages keys must be unique and must not repeat lead, active, won or lost');
  return inTransaction(database, async (trx) => {
    const t = now();
    const firm = await trx.insertInto('firms').values({
      name: input.name,
      plan: input.plan ?? 'gold',
      subscription_status: input.subscription_status ?? 'active',
      timezone: input.timezone ?? 'UTC',
      settings: JSON.stringify({ ...DEFAULT_SETTINGS, ...input.settings }),
      job_types: JSON.stringify(input.job_types ?? DEFAULT_JOB_TYPES),
      divisions: JSON.stringify(input.divisions ?? []),
      owner_user_id: null,
      next_job_number: 1001,
      created_at: t,
      updated_at: t,
    }).returning('id').executeTakeFirstOrThrow();
    let position = 1;
    for (const s of BUILT_IN_STAGES) await insertStage(trx, firm.id, { ...s }, position++);
    for (const s of extra) await insertStage(trx, firm.id, s, position++);
    const owner = await insertUser(trx, firm.id, { ...input.owner, role: 'owner' });
    await trx.updateTable('firms').set({ owner_user_id: owner.id }).where('id', '=', firm.id).execute();
    // Every new workspace starts with an editable catalog (services, items, a price list, templates).
    if (input.starter_catalog !== false) await applyCatalog(trx, firm.id, STARTER_CATALOG, 'merge');
    return { firm_id: firm.id, owner_user_id: owner.id };
  });
}

export async function getWorkspace(database: Database, firmId: number) {
  const firm = await firmOrThrow(database.db, firmId);
  return workspaceObject(firm, await listStages(database.db, firmId));
}

export async function listWorkspaces(database: Database) {
  const firms = await database.db.selectFrom('firms').selectAll().orderBy('id').execute();
  return Promise.all(firms.map(async (f) => workspaceObject(f, await listStages(database.db, f.id))));
}

export async function updateWorkspace(database: Database, firmId: number, body: unknown) {
  const input = validateBody<UpdateWorkspace>(UpdateWorkspaceInput, body);
  if (input.timezone) assertTimezone(input.timezone);
  await afterwardsForgetKeys(inTransaction(database, async (trx) => {
    const firm = await firmOrThrow(trx, firmId);
    const changes: Partial<Firm> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.plan !== undefined) changes.plan = input.plan;
    if (input.subscription_status !== undefined) changes.subscription_status = input.subscription_status;
    if (input.timezone !== undefined) changes.timezone = input.timezone;
    if (input.settings) changes.settings = JSON.stringify({ ...settingsOf(firm), ...input.settings });
    if (input.job_types) changes.job_types = JSON.stringify(input.job_types);
    if (input.divisions) changes.divisions = JSON.stringify(input.divisions);
    if (Object.keys(changes).length > 0) {
      await trx.updateTable('firms').set({ ...changes, updated_at: now() }).where('id', '=', firmId).execute();
    }
  }));
  return getWorkspace(database, firmId);
}

export async function addJobStage(database: Database, firmId: number, body: unknown) {
  const stage = validateBody<Stage>(StageInput, body);
  await inTransaction(database, async (trx) => {
    await firmOrThrow(trx, firmId);
    const stages = await listStages(trx, firmId);
    if (stages.some((s) => s.key === stage.key)) throw conflict('Stage key already used', { key: stage.key });
    await insertStage(trx, firmId, stage, Math.max(0, ...stages.map((s) => s.position)) + 1);
    // Two calls adding one key at once: the loser runs again and its check answers the 409.
  }, { uniqueRace: true });
  return getWorkspace(database, firmId);
}

// ---- users ---------------------------------------------------------------------------------

export function adminUserObject(u: User) {
  return {
    id: u.id,
    firm_id: u.firm_id,
    name: u.name,
    username: u.username,
    email: u.email,
    role: u.role,
    estimating_role: u.estimating_role,
    job_title: u.job_title,
    phone_number: u.phone_number,
    headshot_url: u.headshot_url,
    is_firm_owner: u.role === 'owner',
    ...Object.fromEntries(USER_FLAGS.map((f) => [f, u[f] === 1])),
    removed_at: microWire(u.removed_at),
    created_at: microWire(u.created_at),
    updated_at: microWire(u.updated_at),
  };
}

async function insertUser(db: Executor, firmId: number, input: CreateUser): Promise<User> {
  const role = (input.role ?? 'member') as Role;
  const defaults = defaultFlags(role);
  const t = now();
  const flagValues = Object.fromEntries(USER_FLAGS.map((f) => [f, flag(input[f] ?? defaults[f])])) as Record<(typeof USER_FLAGS)[number], Flag>;
  return db.insertInto('users').values({
    firm_id: firmId,
    name: input.name,
    username: input.username ?? input.email,
    email: input.email.toLowerCase(),
    role,
    estimating_role: input.estimating_role ?? defaults.estimating_role,
    job_title: input.job_title ?? null,
    phone_number: phoneField(input.phone_number, 'phone_number') ?? null,
    headshot_url: input.headshot_url ?? null,
    ...flagValues,
    removed_at: null,
    created_at: t,
    updated_at: t,
  }).returningAll().executeTakeFirstOrThrow();
}

async function assertEmailFree(db: Executor, firmId: number, email: string, selfId: number | null): Promise<void> {
  const holder = await db.selectFrom('users').select('id').where('firm_id', '=', firmId)
    .where('email', '=', email.toLowerCase()).where('removed_at', 'is', null).executeTakeFirst();
  if (holder && holder.id !== selfId) throw conflict('Email already used by a user of this workspace', { user_id: holder.id });
}

export async function createUser(database: Database, firmId: number, body: unknown) {
  const input = validateBody<CreateUser>(CreateUserInput, body);
  return inTransaction(database, async (trx) => {
    await firmOrThrow(trx, firmId);
    await assertEmailFree(trx, firmId, input.email, null);
    return adminUserObject(await insertUser(trx, firmId, input));
  });
}

async function userOrThrow(db: Executor, firmId: number, userId: number): Promise<User> {
  const user = await db.selectFrom('users').selectAll().where('firm_id', '=', firmId).where('id', '=', userId).executeTakeFirst();
  if (!user) throw userNotFound();
  return user;
}

export async function updateUser(database: Database, firmId: number, userId: number, body: unknown) {
  const input = validateBody<UpdateUser>(UpdateUserInput, body);
  return afterwardsForgetKeys(inTransaction(database, async (trx) => {
    const user = await userOrThrow(trx, firmId, userId);
    if (input.email) await assertEmailFree(trx, firmId, input.email, userId);
    const firm = await firmOrThrow(trx, firmId);
    if (input.role && input.role !== 'owner' && firm.owner_user_id === userId) {
      throw conflict('The workspace owner must keep the owner role');
    }
    const changes: Partial<User> = {};
    for (const f of ['name', 'username', 'job_title', 'headshot_url', 'role', 'estimating_role'] as const) {
      if (input[f] !== undefined) (changes as Record<string, unknown>)[f] = input[f];
    }
    if (input.email) changes.email = input.email.toLowerCase();
    if (input.phone_number !== undefined) changes.phone_number = phoneField(input.phone_number, 'phone_number') ?? null;
    for (const f of USER_FLAGS) if (input[f] !== undefined) changes[f] = input[f] ? 1 : 0;
    if (Object.keys(changes).length === 0) return adminUserObject(user);
    return adminUserObject(await trx.updateTable('users').set({ ...changes, updated_at: now() })
      .where('id', '=', userId).returningAll().executeTakeFirstOrThrow());
  }));
}

/** Removing a user keeps their records; their keys read on but answer 403 on writes. */
export async function removeUser(database: Database, firmId: number, userId: number) {
  return afterwardsForgetKeys(inTransaction(database, async (trx) => {
    const user = await userOrThrow(trx, firmId, userId);
    const firm = await firmOrThrow(trx, firmId);
    if (firm.owner_user_id === userId) throw conflict('The workspace owner cannot be removed');
    if (user.removed_at !== null) return adminUserObject(user);
    return adminUserObject(await trx.updateTable('users').set({ removed_at: now(), updated_at: now() })
      .where('id', '=', userId).returningAll().executeTakeFirstOrThrow());
  }));
}

export async function listUsers(database: Database, firmId: number) {
  await firmOrThrow(database.db, firmId);
  const users = await database.db.selectFrom('users').selectAll().where('firm_id', '=', firmId).orderBy('id').execute();
  return users.map(adminUserObject);
}

// ---- keys ----------------------------------------------------------------------------------

function keyObject(k: { id: number; kind: string; name: string | null; prefix: string; firm_id: number | null; user_id: number | null;
  permissions: string; revoked_at: string | null; created_at: string }) {
  return {
    id: k.id, kind: k.kind, name: k.name, prefix: k.prefix, firm_id: k.firm_id, user_id: k.user_id,
    permissions: JSON.parse(k.permissions) as string[], revoked_at: zWire(k.revoked_at), created_at: zWire(k.created_at),
  };
}

export async function createApiKey(database: Database, firmId: number, body: unknown) {
  const input = validateBody<Static<typeof CreateKeyInput>>(CreateKeyInput, body);
  return inTransaction(database, async (trx) => {
    await firmOrThrow(trx, firmId);
    const user = await userOrThrow(trx, firmId, input.user_id);
    if (user.removed_at !== null) throw conflict('User has been removed from the workspace');
    const generated = generateKey('workspace');
    const row = await trx.insertInto('api_keys').values({
      kind: 'workspace', name: input.name ?? null, prefix: generated.prefix, key_hash: generated.hash, firm_id: firmId,
      user_id: user.id, permissions: JSON.stringify(input.permissions), revoked_at: null, created_at: now(),
    }).returningAll().executeTakeFirstOrThrow();
    return { ...keyObject(row), key: generated.key };
    // A new random prefix that happens to be taken (1 in 62^8) is drawn again on the second run.
  }, { uniqueRace: true });
}

export async function listApiKeys(database: Database, firmId: number) {
  await firmOrThrow(database.db, firmId);
  const rows = await database.db.selectFrom('api_keys').selectAll().where('firm_id', '=', firmId).orderBy('id').execute();
  return rows.map(keyObject);
}

async function revoke(database: Database, keyId: number, scope: { firmId: number } | { partner: true }) {
  return afterwardsForgetKeys(inTransaction(database, async (trx) => {
    let q = trx.selectFrom('api_keys').selectAll().where('id', '=', keyId);
    q = 'firmId' in scope ? q.where('firm_id', '=', scope.firmId).where('kind', '=', 'workspace') : q.where('kind', '=', 'partner');
    const key = await q.executeTakeFirst();
    if (!key) throw notFound('API key not found');
    if (key.revoked_at !== null) return keyObject(key);
    return keyObject(await trx.updateTable('api_keys').set({ revoked_at: now() }).where('id', '=', keyId).returningAll().executeTakeFirstOrThrow());
  }));
}

export const revokeApiKey = (database: Database, firmId: number, keyId: number) => revoke(database, keyId, { firmId });
export const revokePartnerKey = (database: Database, keyId: number) => revoke(database, keyId, { partner: true });

export async function createPartnerKey(database: Database, body: unknown) {
  const input = validateBody<Static<typeof CreatePartnerKeyInput>>(CreatePartnerKeyInput, body);
  const firms = input.grants.map((g) => g.firm_id);
  if (new Set(firms).size !== firms.length) throw badRequest('grants must name each firm_id once');
  return inTransaction(database, async (trx) => {
    for (const g of input.grants) {
      const user = await trx.selectFrom('users').select(['id', 'removed_at']).where('firm_id', '=', g.firm_id).where('id', '=', g.user_id).executeTakeFirst();
      if (!user) throw notFound(`User ${g.user_id} not found in workspace ${g.firm_id}`, { grant: g });
    }
    const generated = generateKey('partner');
    const row = await trx.insertInto('api_keys').values({
      kind: 'partner', name: input.name ?? null, prefix: generated.prefix, key_hash: generated.hash, firm_id: null, user_id: null,
      permissions: JSON.stringify(input.permissions), revoked_at: null, created_at: now(),
    }).returningAll().executeTakeFirstOrThrow();
    await trx.insertInto('partner_key_grants').values(input.grants.map((g) => ({ api_key_id: row.id, firm_id: g.firm_id, user_id: g.user_id }))).execute();
    return { ...keyObject(row), grants: input.grants, key: generated.key };
  }, { uniqueRace: true }); // a taken random prefix is drawn again, as for workspace keys
}

// ---- catalog -------------------------------------------------------------------------------

/**
 * Imports a catalog document (src/modules/catalog/document.ts) into a workspace: everything is
 * validated first and nothing is written on any error.
 */
export async function importCatalog(database: Database, firmId: number, body: unknown, mode: unknown = 'merge') {
  if (mode !== 'merge' && mode !== 'replace') throw invalidField('mode', 'mode must be merge or replace');
  return inTransaction(database, async (trx) => {
    await database.dialect.lockFirm(trx, firmId);
    await firmOrThrow(trx, firmId);
    return applyCatalog(trx, firmId, body, mode);
  });
}

/** The workspace's active catalog as an import document. */
export async function exportCatalog(database: Database, firmId: number) {
  await firmOrThrow(database.db, firmId);
  return catalogDocument(database.db, firmId);
}
