// Operator provisioning of workspaces and their job stages: create (with the owner, the built-in
// stages and the starter catalog), read, list, update, and add a stage. The admin HTTP API, the
// `groundwork admin` CLI and the demo seed call these functions.
import { ratingUsage } from '#condition/index.ts';
import type { Static } from '@sinclair/typebox';
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import type { Firm } from '#db/tables.ts';
import { validateBody } from '#platform/ajv.ts';
import { inTransaction } from '#platform/context.ts';
import { badRequest, conflict } from '#platform/errors.ts';
import { millisOf, now, zWire } from '#platform/time.ts';
import {
  BUILT_IN_STAGES,
  DEFAULT_JOB_TYPES,
  DEFAULT_SETTINGS,
  divisionsOf,
  jobTypesOf,
  settingsOf,
} from '#platform/workspace.ts';
import { listStages } from '#crm/index.ts';
import { applyCatalog } from '#estimating/index.ts';
import { STARTER_CATALOG } from '#seed/starter-catalog.ts';
import { contributions } from '#src/area.ts';
import { CreateWorkspaceInput, StageInput, UpdateWorkspaceInput } from './schemas.ts';
import { afterwardsForgetKeys, firmOrThrow } from './shared.ts';
import { insertUser } from './users.ts';

type CreateWorkspace = Static<typeof CreateWorkspaceInput>;
type UpdateWorkspace = Static<typeof UpdateWorkspaceInput>;
type Stage = Static<typeof StageInput>;

function assertTimezone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw badRequest(`timezone must be an IANA time zone such as America/Chicago, got "${tz}"`, { field: 'timezone' });
  }
}

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
    job_stages: stages.map((s) => ({
      key: s.key,
      label: s.label,
      type: s.type,
      position: s.position,
      completed: s.is_completed === 1,
    })),
    owner_user_id: firm.owner_user_id,
    created_at: zWire(firm.created_at),
    updated_at: zWire(firm.updated_at),
  };
}

async function insertStage(db: Executor, firmId: number, stage: Stage, position: number): Promise<void> {
  if (stage.completed)
    await db.updateTable('job_stages').set({ is_completed: 0 }).where('firm_id', '=', firmId).execute();
  await db
    .insertInto('job_stages')
    .values({
      firm_id: firmId,
      key: stage.key,
      label: stage.label,
      type: stage.type,
      position,
      is_completed: stage.completed ? 1 : 0,
      created_at: now(),
    })
    .execute();
}

export async function createWorkspace(
  database: Database,
  body: unknown,
): Promise<{ firm_id: number; owner_user_id: number }> {
  const input = validateBody<CreateWorkspace>(CreateWorkspaceInput, body);
  if (input.timezone) assertTimezone(input.timezone);
  const extra = input.job_stages ?? [];
  const keys = [...BUILT_IN_STAGES.map((s) => s.key as string), ...extra.map((s) => s.key)];
  if (new Set(keys).size !== keys.length)
    throw badRequest('job_stages keys must be unique and must not repeat lead, active, won or lost');
  return inTransaction(database, async (trx) => {
    const t = now();
    const firm = await trx
      .insertInto('firms')
      .values({
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
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    let position = 1;
    for (const s of BUILT_IN_STAGES) await insertStage(trx, firm.id, { ...s }, position++);
    for (const s of extra) await insertStage(trx, firm.id, s, position++);
    const owner = await insertUser(trx, firm.id, { ...input.owner, role: 'owner' });
    await trx.updateTable('firms').set({ owner_user_id: owner.id }).where('id', '=', firm.id).execute();
    // Every new workspace starts with an editable catalog (services, items, a price list, templates).
    if (input.starter_catalog !== false) await applyCatalog(trx, firm.id, STARTER_CATALOG, 'merge');
    // And every area's other starter records (assessment services, linked to that catalog).
    for (const start of contributions().workspaceStarters) await start(trx, firm.id);
    return { firm_id: firm.id, owner_user_id: owner.id };
  });
}

export async function getWorkspace(database: Database, firmId: number) {
  const firm = await firmOrThrow(database.db, firmId);
  return workspaceObject(firm, await listStages(database.db, firmId));
}

/** What the workspace has used that is counted (condition ratings: document 1, each success one call). */
export async function workspaceUsage(database: Database, firmId: number) {
  await firmOrThrow(database.db, firmId);
  return { condition_ratings: await ratingUsage(database.db, firmId, millisOf(now())) };
}

export async function listWorkspaces(database: Database) {
  const firms = await database.db.selectFrom('firms').selectAll().orderBy('id').execute();
  return Promise.all(firms.map(async (f) => workspaceObject(f, await listStages(database.db, f.id))));
}

export async function updateWorkspace(database: Database, firmId: number, body: unknown) {
  const input = validateBody<UpdateWorkspace>(UpdateWorkspaceInput, body);
  if (input.timezone) assertTimezone(input.timezone);
  await afterwardsForgetKeys(
    inTransaction(database, async (trx) => {
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
        await trx
          .updateTable('firms')
          .set({ ...changes, updated_at: now() })
          .where('id', '=', firmId)
          .execute();
      }
    }),
  );
  return getWorkspace(database, firmId);
}

export async function addJobStage(database: Database, firmId: number, body: unknown) {
  const stage = validateBody<Stage>(StageInput, body);
  // Memoised key contexts keep their workspace's stages (crm/job-stages/repo.ts, stagesOf).
  await afterwardsForgetKeys(
    inTransaction(
      database,
      async (trx) => {
        await firmOrThrow(trx, firmId);
        const stages = await listStages(trx, firmId);
        if (stages.some((s) => s.key === stage.key)) throw conflict('Stage key already used', { key: stage.key });
        await insertStage(trx, firmId, stage, Math.max(0, ...stages.map((s) => s.position)) + 1);
        // Two calls adding one key at once: the loser runs again and its check answers the 409.
      },
      { uniqueRace: true },
    ),
  );
  return getWorkspace(database, firmId);
}
