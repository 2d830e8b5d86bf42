// Operator provisioning of a workspace's users: add, change, remove (their records stay) and list.
import type { Static } from '@sinclair/typebox';
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { validateBody } from '#platform/ajv.ts';
import { inTransaction } from '#platform/context.ts';
import { conflict, notFound } from '#platform/errors.ts';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import { defaultFlags, USER_FLAGS, type Role } from '#platform/permissions.ts';
import { now, microWire } from '#platform/time.ts';
import { CreateUserInput, UpdateUserInput } from './schemas.ts';
import { afterwardsForgetKeys, firmOrThrow } from './shared.ts';
import { flag, type Flag } from '#db/tables/shared.ts';
import { phoneField } from '#platform/email-phone.ts';

type CreateUser = Static<typeof CreateUserInput>;
type UpdateUser = Static<typeof UpdateUserInput>;

const userNotFound = () => notFound('User not found');

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
    proposal_send_limit: centsToDollars(u.proposal_send_limit_cents ?? null),
    pay_rate: centsToDollars(u.pay_rate_cents === null ? null : Number(u.pay_rate_cents)),
    removed_at: microWire(u.removed_at),
    created_at: microWire(u.created_at),
    updated_at: microWire(u.updated_at),
  };
}

/** A new user row with the role's default flags (createWorkspace adds the owner this way). */
export async function insertUser(db: Executor, firmId: number, input: CreateUser): Promise<User> {
  const role = (input.role ?? 'member') as Role;
  const defaults = defaultFlags(role);
  const t = now();
  const flagValues = Object.fromEntries(USER_FLAGS.map((f) => [f, flag(input[f] ?? defaults[f])])) as Record<
    (typeof USER_FLAGS)[number],
    Flag
  >;
  return db
    .insertInto('users')
    .values({
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
      proposal_send_limit_cents: input.proposal_send_limit == null ? null : dollarsToCents(input.proposal_send_limit),
      pay_rate_cents: input.pay_rate == null ? null : dollarsToCents(input.pay_rate),
      removed_at: null,
      created_at: t,
      updated_at: t,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function assertEmailFree(db: Executor, firmId: number, email: string, selfId: number | null): Promise<void> {
  const holder = await db
    .selectFrom('users')
    .select('id')
    .where('firm_id', '=', firmId)
    .where('email', '=', email.toLowerCase())
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (holder && holder.id !== selfId)
    throw conflict('Email already used by a user of this workspace', { user_id: holder.id });
}

export async function createUser(database: Database, firmId: number, body: unknown) {
  const input = validateBody<CreateUser>(CreateUserInput, body);
  return inTransaction(database, async (trx) => {
    await firmOrThrow(trx, firmId);
    await assertEmailFree(trx, firmId, input.email, null);
    return adminUserObject(await insertUser(trx, firmId, input));
  });
}

export async function userOrThrow(db: Executor, firmId: number, userId: number): Promise<User> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw userNotFound();
  return user;
}

export async function updateUser(database: Database, firmId: number, userId: number, body: unknown) {
  const input = validateBody<UpdateUser>(UpdateUserInput, body);
  return afterwardsForgetKeys(
    inTransaction(database, async (trx) => {
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
      if (input.phone_number !== undefined)
        changes.phone_number = phoneField(input.phone_number, 'phone_number') ?? null;
      for (const f of USER_FLAGS) if (input[f] !== undefined) changes[f] = input[f] ? 1 : 0;
      if (input.proposal_send_limit !== undefined)
        changes.proposal_send_limit_cents =
          input.proposal_send_limit === null ? null : dollarsToCents(input.proposal_send_limit);
      if (input.pay_rate !== undefined)
        changes.pay_rate_cents = input.pay_rate === null ? null : dollarsToCents(input.pay_rate);
      if (Object.keys(changes).length === 0) return adminUserObject(user);
      return adminUserObject(
        await trx
          .updateTable('users')
          .set({ ...changes, updated_at: now() })
          .where('id', '=', userId)
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }),
  );
}

/** Removing a user keeps their records; their keys read on but answer 403 on writes. */
export async function removeUser(database: Database, firmId: number, userId: number) {
  return afterwardsForgetKeys(
    inTransaction(database, async (trx) => {
      const user = await userOrThrow(trx, firmId, userId);
      const firm = await firmOrThrow(trx, firmId);
      if (firm.owner_user_id === userId) throw conflict('The workspace owner cannot be removed');
      if (user.removed_at !== null) return adminUserObject(user);
      return adminUserObject(
        await trx
          .updateTable('users')
          .set({ removed_at: now(), updated_at: now() })
          .where('id', '=', userId)
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }),
  );
}

export async function listUsers(database: Database, firmId: number) {
  await firmOrThrow(database.db, firmId);
  const users = await database.db.selectFrom('users').selectAll().where('firm_id', '=', firmId).orderBy('id').execute();
  return users.map(adminUserObject);
}
