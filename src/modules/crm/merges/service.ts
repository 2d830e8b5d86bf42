// Merges of customers, contacts and sites (document 2, Search and merge): the record in the URL
// is merged away into the one named in the body. Everything pointing at it moves over (movers.ts),
// field values keep the survivor's unless blank (fields.ts), then a customer or contact is
// deleted and a site archived with its old id resolving to the survivor. One transaction.
import type { Transaction } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { ClientAccount, Contact, DB, Location } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, conflict, notFound } from '#platform/errors.ts';
import { can } from '#platform/permissions.ts';
import { isBlank } from '#platform/records.ts';
import { now } from '#platform/time.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { findContactRow, type ContactRow } from '#crm/contacts/repo.ts';
import { displayNameOf } from '#crm/contacts/rules.ts';
import { materializeChannels, primaryValues, saveContact, setPrimaryCompany } from '#crm/contacts/write.ts';
import { definitionsOf } from '#crm/custom-fields/values.ts';
import { findLocation, findLocationRow } from '#crm/locations/repo.ts';
import { companyRequiredOnSites } from '#crm/locations/service.ts';
import { CUSTOM_FIELD_ENTITY, MergeFields, type Choice, type FieldDiff } from './fields.ts';
import { countInvoicedJobs, moversOf } from './movers.ts';
import type { RecordMergeKind, MergeScope } from '#src/area.ts';
import type { MergeInput } from './schemas.ts';
import { assertDeletionAllowed, assertOfficeUser } from '#platform/guards.ts';

type Trx = Transaction<DB>;
type AnyRow = ClientAccount | ContactRow | Location;

const AREA: Record<RecordMergeKind, { noun: string; notFound: string; intoField: string }> = {
  client_account: { noun: 'customer', notFound: 'Client account not found', intoField: 'into_client_account_id' },
  contact: { noun: 'contact', notFound: 'Contact not found', intoField: 'into_contact_id' },
  location: { noun: 'site', notFound: 'Location not found', intoField: 'into_location_id' },
};

export interface RecordBrief {
  id: number;
  name: string;
  archived: boolean;
}
export interface Blocker {
  code: string;
  message: string;
}

function nameOf(kind: RecordMergeKind, row: AnyRow): string {
  if (kind === 'contact') {
    const c = row as ContactRow;
    return displayNameOf({ ...c, company: c.ca_name ?? c.company });
  }
  return (row as ClientAccount | Location).name;
}

function brief(kind: RecordMergeKind, row: AnyRow): RecordBrief {
  return { id: row.id, name: nameOf(kind, row), archived: row.archived_at !== null };
}

/**
 * The two records, merged-away first. A site named as the one to keep may be given by a
 * merged-away site's old id (it resolves to the survivor); the site merged away is taken as stored.
 */
async function loadPair(
  db: Executor,
  kind: RecordMergeKind,
  firmId: number,
  awayId: number,
  intoId: number,
): Promise<[AnyRow, AnyRow]> {
  const area = AREA[kind];
  const find = (id: number, into: boolean): Promise<AnyRow | undefined> => {
    if (kind === 'client_account') return findClientAccount(db, firmId, id);
    if (kind === 'contact') return findContactRow(db, firmId, id);
    return into ? findLocation(db, firmId, id) : findLocationRow(db, firmId, id);
  };
  const away = await find(awayId, false);
  if (!away) throw notFound(area.notFound);
  const kept = await find(intoId, true);
  if (!kept)
    throw notFound(area.notFound, {
      field: area.intoField,
      message: `${area.intoField} ${intoId} is not a ${area.noun} in this workspace`,
    });
  if (kept.id === away.id) {
    throw badRequest(`Cannot merge a ${area.noun} into itself`, { code: 'merge_into_self', field: area.intoField });
  }
  return [away, kept];
}

const OFFICE_USER_MESSAGE = 'Merges need an office user; a crew login is refused';
const DELETION_LOCKED_MESSAGE = 'This workspace has turned off deleting records, and merges with it';
const alreadyMerged = (site: Location) =>
  conflict('Site already merged', {
    message: `This site was merged into site ${site.merged_into_id} and cannot be merged again`,
    code: 'already_merged',
    merged_into_id: site.merged_into_id,
  });
const invoicedJobs = (n: number) =>
  conflict('Site has invoiced jobs', {
    message: `${n} job${n === 1 ? '' : 's'} at this site ${n === 1 ? 'has' : 'have'} invoices; send move_invoiced_jobs: true to move them to the kept site`,
    code: 'invoiced_jobs',
    invoiced_job_count: n,
  });

async function fieldsOf(
  db: Executor,
  kind: RecordMergeKind,
  firmId: number,
  kept: AnyRow,
  away: AnyRow,
): Promise<MergeFields> {
  const defs = await definitionsOf(db, firmId, CUSTOM_FIELD_ENTITY[kind]);
  return new MergeFields(kind, kept as never, away as never, defs);
}

function scopeOf(
  ctx: ServiceContext,
  kind: RecordMergeKind,
  kept: AnyRow,
  away: AnyRow,
  keptName: string,
  choices: Record<string, Choice>,
): MergeScope {
  return {
    firmId: ctx.auth.firm.id,
    userId: ctx.auth.user.id,
    keptId: kept.id,
    awayId: away.id,
    keptName,
    awayName: nameOf(kind, away),
    choices,
  };
}

async function countMoves(
  db: Executor,
  kind: RecordMergeKind,
  scope: MergeScope,
): Promise<{ count: number; label: string }[]> {
  const out: { count: number; label: string }[] = [];
  for (const mover of moversOf(kind)) {
    if (!mover.count) continue;
    const count = await mover.count(db, scope.awayId, scope);
    if (count > 0) out.push({ count, label: mover.label });
  }
  return out;
}

// ---- preview -------------------------------------------------------------------------------

export interface MergePreview {
  keep: RecordBrief;
  merge_away: RecordBrief;
  fields: FieldDiff[];
  moves: { count: number; label: string }[];
  blockers: Blocker[];
  invoiced_job_count?: number;
}

export async function previewMerge(
  ctx: ServiceContext,
  kind: RecordMergeKind,
  awayId: number,
  intoId: number,
): Promise<MergePreview> {
  const db = ctx.database.db;
  const firmId = ctx.auth.firm.id;
  const [away, kept] = await loadPair(db, kind, firmId, awayId, intoId);
  const fields = await fieldsOf(db, kind, firmId, kept, away);
  const defaults = fields.resolve();
  const keptName =
    kind === 'contact' ? nameOf(kind, kept) : String(fields.changes(defaults).name ?? nameOf(kind, kept));
  const moves = await countMoves(db, kind, scopeOf(ctx, kind, kept, away, keptName, defaults));

  const blockers: Blocker[] = [];
  if (!can(ctx.auth.user, 'office_user')) blockers.push({ code: 'office_user_required', message: OFFICE_USER_MESSAGE });
  for (const p of ['write_jobs', 'delete_records'] as const) {
    if (!ctx.auth.permissions.has(p)) {
      blockers.push({ code: 'missing_permission', message: `The API key lacks ${p}, which a merge needs` });
    }
  }
  if (ctx.auth.settings.deletion_locked) blockers.push({ code: 'deletion_locked', message: DELETION_LOCKED_MESSAGE });
  const preview: MergePreview = {
    keep: brief(kind, kept),
    merge_away: brief(kind, away),
    fields: fields.diffs,
    moves,
    blockers,
  };
  if (kind === 'location') {
    const site = away as Location;
    if (site.merged_into_id !== null)
      blockers.push({ code: 'already_merged', message: alreadyMerged(site).body.message! });
    const invoiced = await countInvoicedJobs(db, firmId, site.id);
    if (invoiced > 0) blockers.push({ code: 'invoiced_jobs', message: invoicedJobs(invoiced).body.message! });
    preview.invoiced_job_count = invoiced;
  }
  return preview;
}

// ---- merge ---------------------------------------------------------------------------------

export interface MergeResult {
  kept: RecordBrief;
  merged_id: number;
  merged_name: string;
  message: string;
}

export function mergeRecords(
  ctx: ServiceContext,
  kind: RecordMergeKind,
  awayId: number,
  input: MergeInput,
): Promise<MergeResult> {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const [away, kept] = await loadPair(trx, kind, firmId, awayId, input.into_id);
    assertOfficeUser(ctx, OFFICE_USER_MESSAGE);
    assertDeletionAllowed(ctx, DELETION_LOCKED_MESSAGE);
    if (kind === 'location' && (away as Location).merged_into_id !== null) throw alreadyMerged(away as Location);

    if (kind === 'contact') {
      // Rows whose email or phone lives only on the contact get their channel rows first.
      await materializeChannels(trx, kept as Contact);
      await materializeChannels(trx, away as Contact);
    }
    const fields = await fieldsOf(trx, kind, firmId, kept, away);
    const resolved = fields.resolve(input.choices);
    if (kind === 'location') {
      const invoiced = await countInvoicedJobs(trx, firmId, away.id);
      if (invoiced > 0 && input.move_invoiced_jobs !== true) throw invoicedJobs(invoiced);
    }
    const changes = fields.changes(resolved);
    const keptName = kind === 'contact' ? nameOf(kind, kept) : String(changes.name ?? nameOf(kind, kept));
    const scope = scopeOf(ctx, kind, kept, away, keptName, resolved);
    const moves = await countMoves(trx, kind, scope);

    // An identity the kept record lacks passes to it (freed first: external_ref is unique).
    if (kind !== 'contact') {
      const ref = (away as ClientAccount | Location).external_ref;
      if (isBlank((kept as ClientAccount | Location).external_ref) && !isBlank(ref)) {
        await trx
          .updateTable(kind === 'client_account' ? 'client_accounts' : 'locations')
          .set({ external_ref: null })
          .where('id', '=', away.id)
          .execute();
        changes.external_ref = ref;
      }
    }

    for (const mover of moversOf(kind)) await mover.move(trx, away.id, kept.id, scope);

    let after: AnyRow;
    if (kind === 'client_account')
      after = await finishCustomer(trx, kept as ClientAccount, away as ClientAccount, changes);
    else if (kind === 'contact')
      after = await finishContact(trx, kept as ContactRow, away as ContactRow, changes, resolved, fields);
    else after = await finishSite(ctx, trx, kept as Location, away as Location, changes);

    const area = AREA[kind];
    const moved =
      moves.length === 0
        ? 'Nothing else needed moving.'
        : `Moved ${moves.map((m) => `${m.label} (${m.count})`).join(', ')}.`;
    const fate = kind === 'location' ? 'archived; its id now resolves to the kept site' : 'deleted';
    return {
      kept: brief(kind, after),
      merged_id: away.id,
      merged_name: nameOf(kind, away),
      message: `Merged ${area.noun} "${nameOf(kind, away)}" into "${nameOf(kind, after)}". ${moved} The merged ${area.noun} was ${fate}.`,
    };
  });
}

async function finishCustomer(
  trx: Trx,
  kept: ClientAccount,
  away: ClientAccount,
  changes: Record<string, unknown>,
): Promise<ClientAccount> {
  const t = now();
  const after = await trx
    .updateTable('client_accounts')
    .set({ ...changes, updated_at: t } as Partial<ClientAccount>)
    .where('id', '=', kept.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (after.name !== kept.name) {
    // contacts.company mirrors the primary company's name.
    await trx
      .updateTable('contacts')
      .set({ company: after.name, updated_at: t })
      .where('client_account_id', '=', kept.id)
      .execute();
  }
  await trx.deleteFrom('client_accounts').where('id', '=', away.id).execute();
  return after;
}

async function finishContact(
  trx: Trx,
  kept: ContactRow,
  away: ContactRow,
  changes: Record<string, unknown>,
  resolved: Record<string, Choice>,
  fields: MergeFields,
): Promise<ContactRow> {
  const before = await trx.selectFrom('contacts').selectAll().where('id', '=', kept.id).executeTakeFirstOrThrow();
  const update: Partial<Contact> = { ...changes } as Partial<Contact>;
  delete update.email;
  delete update.phone;
  delete update.company;
  delete update.client_account_id;
  if (resolved.company !== undefined && fields.awayValueWins('company', resolved.company)) {
    const account =
      away.client_account_id === null ? null : { id: away.client_account_id, name: away.ca_name ?? away.company ?? '' };
    Object.assign(update, await setPrimaryCompany(trx, before, account));
    if (account === null) update.company = away.company;
  }
  // Email and phone mirror the primary channels, which the channel mover settled.
  Object.assign(update, await primaryValues(trx, kept.id));
  const tags = parseTags(before.tags);
  for (const tag of parseTags(away.tags)) if (!tags.some((x) => x.toLowerCase() === tag.toLowerCase())) tags.push(tag);
  update.tags = JSON.stringify(tags);
  await saveContact(trx, before, update, true);
  await trx.deleteFrom('job_contacts').where('contact_id', '=', away.id).execute();
  await trx.deleteFrom('contacts').where('id', '=', away.id).execute();
  return (await findContactRow(trx, kept.firm_id, kept.id))!;
}

function parseTags(raw: string): string[] {
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

async function finishSite(
  ctx: ServiceContext,
  trx: Trx,
  kept: Location,
  away: Location,
  changes: Record<string, unknown>,
): Promise<Location> {
  if (
    ctx.auth.settings.require_company_on_sites &&
    'client_account_id' in changes &&
    changes.client_account_id === null
  ) {
    throw companyRequiredOnSites();
  }
  const t = now();
  const after = await trx
    .updateTable('locations')
    .set({ ...changes, updated_at: t } as Partial<Location>)
    .where('id', '=', kept.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('locations')
    .set({ archived_at: away.archived_at ?? t, merged_into_id: kept.id, updated_at: t })
    .where('id', '=', away.id)
    .execute();
  // Sites merged into the merged-away one earlier now point straight at the survivor.
  await trx
    .updateTable('locations')
    .set({ merged_into_id: kept.id, updated_at: t })
    .where('firm_id', '=', kept.firm_id)
    .where('merged_into_id', '=', away.id)
    .execute();
  return after;
}
