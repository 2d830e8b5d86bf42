// Customers: upsert on external_ref then name (fills blanks, restores archived), read, update.
import type { Executor } from '#db/dialect.ts';
import type { ClientAccount } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, notFound } from '#platform/errors.ts';
import { emailField, phoneField } from '#platform/email-phone.ts';
import { fillBlanks, externalRefHeld } from '#platform/records.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { findClientAccount, findClientAccountByRef, findClientAccountsByName } from './repo.ts';
import type { CreateClientAccountInput, UpdateClientAccountInput } from './schemas.ts';

const FILLABLE = ['external_ref', 'email', 'phone', 'address', 'notes'] as const;

export const clientAccountNotFound = () => notFound('Client account not found');

async function assertRefFree(db: Executor, firmId: number, ref: string, selfId: number | null): Promise<void> {
  const holder = await findClientAccountByRef(db, firmId, ref);
  if (holder && holder.id !== selfId) {
    throw externalRefHeld(ref, { type: 'client_account', id: holder.id, name: holder.name });
  }
}

async function insertClientAccount(
  db: Executor,
  firmId: number,
  input: CreateClientAccountInput,
): Promise<ClientAccount> {
  const t = now();
  return db
    .insertInto('client_accounts')
    .values({
      firm_id: firmId,
      name: input.name.trim(),
      name_key: nameKey(input.name),
      external_ref: input.external_ref ?? null,
      email: input.email ?? null,
      phone: input.phone ?? null,
      address: input.address ?? null,
      notes: input.notes ?? null,
      skip_automatic_follow_ups: input.skip_automatic_follow_ups ? 1 : 0,
      custom_fields: '{}',
      archived_at: null,
      created_at: t,
      updated_at: t,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Fills blanks and restores an archived match; untouched records keep their updated_at. */
async function reviveAndFill(
  db: Executor,
  existing: ClientAccount,
  input: CreateClientAccountInput,
): Promise<ClientAccount> {
  const { skip_automatic_follow_ups: skip, ...fillable } = input;
  const changes: Partial<ClientAccount> = fillBlanks(existing, fillable as Partial<ClientAccount>, FILLABLE);
  if (existing.archived_at !== null) changes.archived_at = null;
  if (skip !== undefined && (skip ? 1 : 0) !== existing.skip_automatic_follow_ups)
    changes.skip_automatic_follow_ups = skip ? 1 : 0;
  if (Object.keys(changes).length === 0) return existing;
  return db
    .updateTable('client_accounts')
    .set({ ...changes, updated_at: now() })
    .where('id', '=', existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Matches on external_ref, then on name (case and spacing ignored). A same-named customer that
 * carries a different external_ref is a different customer, so a new one is made.
 */
export async function upsertClientAccountIn(db: Executor, firmId: number, input: CreateClientAccountInput) {
  if (input.external_ref) {
    const byRef = await findClientAccountByRef(db, firmId, input.external_ref);
    if (byRef) return { account: await reviveAndFill(db, byRef, input), created: false };
  }
  const byName = (await findClientAccountsByName(db, firmId, nameKey(input.name))).find(
    (a) => !input.external_ref || a.external_ref === null,
  );
  if (byName) return { account: await reviveAndFill(db, byName, input), created: false };
  return { account: await insertClientAccount(db, firmId, input), created: true };
}

/** The customer's email and phone checked and tidied by the one rule of each (blank clears). */
function withContactValues<T extends UpdateClientAccountInput>(input: T): T {
  const out = { ...input };
  if (input.email !== undefined) out.email = emailField(input.email, 'email');
  if (input.phone !== undefined) out.phone = phoneField(input.phone, 'phone');
  return out;
}

export function upsertClientAccount(ctx: ServiceContext, sent: CreateClientAccountInput) {
  if (sent.name.trim() === '') throw badRequest('name is required', { field: 'name' });
  const input = withContactValues(sent);
  return inWorkspaceTransaction(ctx, async (trx) => {
    return upsertClientAccountIn(trx, ctx.auth.firm.id, input);
  });
}

export async function getClientAccount(ctx: ServiceContext, id: number): Promise<ClientAccount> {
  const account = await findClientAccount(ctx.database.db, ctx.auth.firm.id, id);
  if (!account) throw clientAccountNotFound();
  return account;
}

export function updateClientAccount(
  ctx: ServiceContext,
  id: number,
  sent: UpdateClientAccountInput,
): Promise<ClientAccount> {
  const firmId = ctx.auth.firm.id;
  const input = withContactValues(sent);
  return inWorkspaceTransaction(ctx, async (trx) => {
    const existing = await findClientAccount(trx, firmId, id);
    if (!existing) throw clientAccountNotFound();
    if (input.external_ref) await assertRefFree(trx, firmId, input.external_ref, id);
    const { archived, skip_automatic_follow_ups: skip, ...fields } = input;
    const changes: Partial<ClientAccount> = { ...fields };
    if (skip !== undefined) changes.skip_automatic_follow_ups = skip ? 1 : 0;
    if (fields.name !== undefined) {
      if (fields.name.trim() === '') throw badRequest('name cannot be empty', { field: 'name' });
      changes.name = fields.name.trim();
      changes.name_key = nameKey(fields.name);
    }
    if (archived !== undefined && archived !== (existing.archived_at !== null))
      changes.archived_at = archived ? now() : null;
    if (Object.keys(changes).length === 0) return existing;
    return trx
      .updateTable('client_accounts')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
