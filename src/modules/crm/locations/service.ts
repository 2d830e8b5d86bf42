// Sites: upsert on external_ref then address (fills blanks, restores archived), read, update,
// and the "links or creates the site at that address" rule used by job writes.
import type { Executor } from '#db/dialect.ts';
import type { Location } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, notFound, unprocessable } from '#platform/errors.ts';
import { fillBlanks, externalRefHeld } from '#platform/records.ts';
import { addressKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import type { Settings } from '#platform/workspace.ts';
import { findClientAccount, findClientAccountByRef } from '#crm/client-accounts/repo.ts';
import { findLocation, findLocationByRef, findLocationsByAddress, survivorOf } from './repo.ts';
import type { CreateLocationInput, UpdateLocationInput } from './schemas.ts';

const FILLABLE = ['name', 'external_ref', 'client_account_id', 'property_reference', 'notes'] as const;

export const locationNotFound = () => notFound('Location not found');
export const companyRequiredOnSites = () =>
  unprocessable('Company required on sites', {
    message: 'This workspace requires a customer on every site: send client_account_id',
    code: 'company_required',
    missing_fields: ['client_account_id'],
  });

/** Resolves client_account_id / client_account_external_ref to a customer of the workspace. */
export async function resolveCustomerId(
  db: Executor,
  firmId: number,
  input: { client_account_id?: number | null; client_account_external_ref?: string | null },
): Promise<number | null | undefined> {
  if (input.client_account_id !== undefined && input.client_account_id !== null) {
    if (!(await findClientAccount(db, firmId, input.client_account_id))) {
      throw notFound('client_account_id not found in this workspace', { field: 'client_account_id' });
    }
    return input.client_account_id;
  }
  if (input.client_account_external_ref !== undefined && input.client_account_external_ref !== null) {
    const account = await findClientAccountByRef(db, firmId, input.client_account_external_ref);
    if (!account)
      throw notFound('client_account_external_ref not found in this workspace', {
        field: 'client_account_external_ref',
      });
    return account.id;
  }
  return input.client_account_id === null ? null : undefined;
}

async function assertRefFree(db: Executor, firmId: number, ref: string, selfId: number | null): Promise<void> {
  const holder = await findLocationByRef(db, firmId, ref);
  if (holder && holder.id !== selfId) {
    throw externalRefHeld(ref, { type: 'location', id: holder.id, name: holder.name });
  }
}

async function reviveAndFill(db: Executor, existing: Location, input: Partial<Location>): Promise<Location> {
  const changes: Partial<Location> = fillBlanks(existing, input, FILLABLE);
  if (existing.archived_at !== null) changes.archived_at = null;
  if (Object.keys(changes).length === 0) return existing;
  return db
    .updateTable('locations')
    .set({ ...changes, updated_at: now() })
    .where('id', '=', existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Matches on external_ref, then on address (case, punctuation and spacing ignored); a site at
 * the same address with a different external_ref is another site. A new site needs a customer
 * when the workspace requires one (422).
 */
export async function upsertLocationIn(
  db: Executor,
  firmId: number,
  settings: Settings,
  input: Omit<CreateLocationInput, 'client_account_external_ref'>,
) {
  const values: Partial<Location> = {
    name: input.name ?? null,
    external_ref: input.external_ref ?? null,
    client_account_id: input.client_account_id ?? null,
    property_reference: input.property_reference ?? null,
    notes: input.notes ?? null,
  } as Partial<Location>;
  if (input.external_ref) {
    // A merged-away site's external_ref or address finds the site it was merged into.
    const byRef = await survivorOf(db, firmId, await findLocationByRef(db, firmId, input.external_ref));
    if (byRef) return { location: await reviveAndFill(db, byRef, values), created: false };
  }
  const key = addressKey(input.address);
  const byAddress = await survivorOf(
    db,
    firmId,
    (await findLocationsByAddress(db, firmId, key)).find((l) => !input.external_ref || l.external_ref === null),
  );
  if (byAddress) return { location: await reviveAndFill(db, byAddress, values), created: false };
  if (settings.require_company_on_sites && !input.client_account_id) throw companyRequiredOnSites();
  const t = now();
  const location = await db
    .insertInto('locations')
    .values({
      firm_id: firmId,
      name: input.name?.trim() || input.address.trim(),
      address: input.address.trim(),
      address_key: key,
      external_ref: input.external_ref ?? null,
      client_account_id: input.client_account_id ?? null,
      property_reference: input.property_reference ?? null,
      notes: input.notes ?? null,
      custom_fields: '{}',
      archived_at: null,
      created_at: t,
      updated_at: t,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { location, created: true };
}

export function upsertLocation(ctx: ServiceContext, input: CreateLocationInput) {
  if (input.address.trim() === '') throw badRequest('address is required', { field: 'address' });
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const customerId = await resolveCustomerId(trx, firmId, input);
    return upsertLocationIn(trx, firmId, ctx.auth.settings, { ...input, client_account_id: customerId ?? null });
  });
}

export async function getLocation(ctx: ServiceContext, id: number): Promise<Location> {
  const location = await findLocation(ctx.database.db, ctx.auth.firm.id, id);
  if (!location) throw locationNotFound();
  return location;
}

export function updateLocation(ctx: ServiceContext, id: number, input: UpdateLocationInput): Promise<Location> {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const existing = await findLocation(trx, firmId, id);
    if (!existing) throw locationNotFound();
    // A merged-away site's old id edits the site it was merged into.
    if (input.external_ref) await assertRefFree(trx, firmId, input.external_ref, existing.id);
    const { archived, client_account_external_ref, ...fields } = input;
    const changes: Partial<Location> = { ...fields } as Partial<Location>;
    const customerId = await resolveCustomerId(trx, firmId, input);
    if (customerId !== undefined) changes.client_account_id = customerId;
    const customerAfter =
      changes.client_account_id !== undefined ? changes.client_account_id : existing.client_account_id;
    if (ctx.auth.settings.require_company_on_sites && customerAfter === null) throw companyRequiredOnSites();
    if (fields.address !== undefined) {
      if (fields.address.trim() === '') throw badRequest('address cannot be empty', { field: 'address' });
      changes.address = fields.address.trim();
      changes.address_key = addressKey(fields.address);
    }
    if (fields.name !== undefined) changes.name = fields.name?.trim() || (changes.address ?? existing.address);
    if (archived !== undefined && archived !== (existing.archived_at !== null))
      changes.archived_at = archived ? now() : null;
    if (Object.keys(changes).length === 0) return existing;
    return trx
      .updateTable('locations')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
