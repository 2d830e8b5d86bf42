// Estimates: list, read (live or an issued version), versions, the edit log, create (from a job
// and optional template), estimate-level changes (pricing inputs, job costs, name, areas),
// archive and restore, recalculate.
import { invalidField, notFound } from '#platform/errors.ts';
import { centsToDollars } from '#platform/money.ts';
import type { Page } from '#platform/pagination.ts';
import { nameKey } from '#platform/text.ts';
import { now, zWire } from '#platform/time.ts';
import { findPriceList, findServices, findTemplate } from '#estimating/catalog/repo.ts';
import { templateAreas } from '#estimating/catalog/serialize.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { effectivePricing, workspacePricing, type StoredPricing } from './calculation.ts';
import { ESTIMATE_STATUSES } from './schemas.ts';
import { recordEstimateCreated } from './events.ts';
import {
  insertServiceCostLines,
  lineFieldsFromService,
  NEW_LINE_DEFAULTS,
  priceBookFor,
  type PriceBook,
} from './from-catalog.ts';
import { findEstimate, listEstimates as listRows, loadTree, nextDocNumber, type EstimateFilter } from './repo.ts';
import { assertEstimateRole } from './roles.ts';
import { estimateObject, estimateSummary, totalsOf } from './serialize.ts';
import {
  EDITABLE,
  estimateNotFound,
  inEstimateTransaction,
  repriceAndLog,
  writeEstimate,
  type Trx,
  type WriteStep,
} from './write.ts';
import { pullTakeoffLines, quantitiesOf } from './takeoff-quantities.ts';
import type { AreaInput, CreateEstimateInput, UpdateEstimateInput } from './schemas.ts';
import type { ServiceContext } from '#platform/context.ts';
import type { Estimate } from '#db/tables.ts';

export async function listEstimates(ctx: ServiceContext, filter: EstimateFilter, page: Page) {
  const { rows, total } = await listRows(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    filter,
    page.limit,
    page.offset,
  );
  return { data: rows.map(estimateSummary), total };
}

async function visible(ctx: ServiceContext, id: number): Promise<Estimate> {
  const e = await findEstimate(ctx.database.db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!e) throw estimateNotFound();
  return e;
}

/** The live estimate, or with `version` the issued version as it was frozen. */
export async function getEstimate(ctx: ServiceContext, id: number, version?: number) {
  const e = await visible(ctx, id);
  if (version === undefined) return estimateObject(await loadTree(ctx.database.db, e));
  const snap = await ctx.database.db
    .selectFrom('estimate_snapshots')
    .select('document')
    .where('estimate_id', '=', e.id)
    .where('kind', '=', 'version')
    .where('version', '=', version)
    .executeTakeFirst();
  if (!snap) throw notFound('Version not found', { field: 'version', current_version: e.current_version });
  return JSON.parse(snap.document);
}

/** The award snapshot: the estimate as it was marked won. */
export async function getAward(ctx: ServiceContext, id: number) {
  const e = await visible(ctx, id);
  if (e.award_snapshot_id === null) throw notFound('Estimate has not been won', { code: 'not_awarded' });
  const snap = await ctx.database.db
    .selectFrom('estimate_snapshots')
    .select('document')
    .where('id', '=', e.award_snapshot_id)
    .executeTakeFirstOrThrow();
  return JSON.parse(snap.document);
}

export async function listVersions(ctx: ServiceContext, id: number) {
  const e = await visible(ctx, id);
  const snaps = await ctx.database.db
    .selectFrom('estimate_snapshots')
    .select([
      'version',
      'created_at',
      'created_by_user_id',
      'price_cents',
      'subtotal_cents',
      'tax_cents',
      'cost_cents',
      'margin_cents',
      'margin_pct',
      'optional_total_cents',
      'profit_floor_overridden',
    ])
    .where('estimate_id', '=', e.id)
    .where('kind', '=', 'version')
    .orderBy('version')
    .execute();
  return snaps.map((s) => ({
    version: s.version!,
    issued_at: zWire(s.created_at),
    issued_by_user_id: s.created_by_user_id,
    totals: totalsOf({ ...s, priced: 1 }),
    profit_floor_overridden: s.profit_floor_overridden === 1,
    is_current: s.version === e.current_version,
  }));
}

export async function listRevisions(ctx: ServiceContext, id: number, page: Page) {
  const e = await visible(ctx, id);
  const db = ctx.database.db;
  const [rows, count] = await Promise.all([
    db
      .selectFrom('estimate_revisions')
      .leftJoin('users', 'users.id', 'estimate_revisions.user_id')
      .select([
        'estimate_revisions.revision',
        'estimate_revisions.action',
        'estimate_revisions.summary',
        'estimate_revisions.changes',
        'estimate_revisions.total_before_cents',
        'estimate_revisions.total_after_cents',
        'estimate_revisions.created_at',
        'users.id as user_id',
        'users.name as user_name',
      ])
      .where('estimate_revisions.estimate_id', '=', e.id)
      .orderBy('estimate_revisions.revision', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('estimate_revisions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('estimate_id', '=', e.id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    data: rows.map((r) => ({
      revision: r.revision,
      action: r.action,
      summary: r.summary,
      changes: JSON.parse(r.changes),
      total_before: centsToDollars(r.total_before_cents),
      total_after: centsToDollars(r.total_after_cents),
      // Both come from the left-joined user row: null together when the user is gone.
      user: r.user_id === null || r.user_name === null ? null : { id: r.user_id, name: r.user_name },
      created_at: zWire(r.created_at),
    })),
    total: Number(count.n),
  };
}

// ---- create ----

/** Inserts areas and lines from a template (quantities as the template gives them; none is 0, to be typed). */
async function applyTemplate(
  trx: Trx,
  e: Estimate,
  templateId: number,
  book: PriceBook,
  ctx: ServiceContext,
  at: string,
): Promise<void> {
  const firmId = e.firm_id;
  const template = await findTemplate(trx, firmId, templateId);
  if (!template || template.archived_at !== null) throw notFound('Template not found', { field: 'template_id' });
  const areas = templateAreas(template);
  const services = new Map(
    (
      await findServices(
        trx,
        firmId,
        areas.flatMap((a) => a.services.map((s) => s.service_id)),
      )
    ).map((s) => [s.id, s]),
  );
  for (const [a, area] of areas.entries()) {
    const { id: areaId } = await trx
      .insertInto('estimate_areas')
      .values({
        firm_id: firmId,
        estimate_id: e.id,
        name: area.name,
        position: a + 1,
        quantity_source: 'manual',
        takeoff_id: null,
        active: 1,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    let position = 1;
    for (const entry of area.services) {
      const service = services.get(entry.service_id);
      // A service archived after the template was saved is skipped, as a new reference to it would be refused.
      if (!service || service.archived_at !== null) continue;
      const { id: lineId } = await trx
        .insertInto('estimate_lines')
        .values({
          ...NEW_LINE_DEFAULTS,
          firm_id: firmId,
          estimate_id: e.id,
          area_id: areaId,
          position: position++,
          ...lineFieldsFromService(service, book),
          quantity: entry.quantity ?? '0',
          quantity_source: 'inherited',
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (service.estimating_mode === 'detailed') {
        await insertServiceCostLines(
          trx,
          { firm_id: firmId, estimate_id: e.id, id: lineId },
          service.id,
          book,
          ctx.auth.settings,
          at,
        );
      }
    }
  }
}

/** Inserts a new estimate row; shared by create and change orders. */
export async function insertEstimate(
  trx: Trx,
  ctx: ServiceContext,
  fields: Pick<
    Estimate,
    | 'job_id'
    | 'name'
    | 'status'
    | 'is_change_order'
    | 'parent_estimate_id'
    | 'change_order_mode'
    | 'template_id'
    | 'pricing'
    | 'job_costs'
  >,
  at: string,
): Promise<Estimate> {
  const row = {
    firm_id: ctx.auth.firm.id,
    ...fields,
    doc_number: await nextDocNumber(trx, ctx.auth.firm.id),
    current_version: null,
    priced: 0 as const,
    calculation: null,
    price_cents: null,
    subtotal_cents: null,
    tax_cents: null,
    cost_cents: null,
    margin_cents: null,
    optional_total_cents: null,
    margin_pct: null,
    awarded_at: null,
    award_snapshot_id: null,
    lost_at: null,
    lost_reason: null,
    status_before_lost: null,
    revision: 0,
    created_by_user_id: ctx.auth.user.id,
    archived_at: null,
    created_at: at,
    updated_at: at,
  };
  const { id } = await trx.insertInto('estimates').values(row).returning('id').executeTakeFirstOrThrow();
  return { id, ...row };
}

export async function createEstimate(ctx: ServiceContext, body: CreateEstimateInput) {
  assertEstimateRole(ctx.auth.user, 'create');
  return inEstimateTransaction(ctx, async (trx, places) => {
    const job = await findVisibleJob(trx, ctx.auth.firm.id, body.job_id, ctx.auth.user);
    if (!job) throw jobNotFound();
    const at = now();
    const name = body.name?.trim() || job.name;
    const e = await insertEstimate(
      trx,
      ctx,
      {
        job_id: job.id,
        name,
        status: 'draft',
        is_change_order: 0,
        parent_estimate_id: null,
        change_order_mode: null,
        template_id: body.template_id ?? null,
        pricing: null,
        job_costs: null,
      },
      at,
    );
    if (body.template_id !== undefined) {
      await applyTemplate(trx, e, body.template_id, await priceBookFor(trx, e.firm_id, null), ctx, at);
    } else {
      await trx
        .insertInto('estimate_areas')
        .values({
          firm_id: e.firm_id,
          estimate_id: e.id,
          name: 'Main',
          position: 1,
          quantity_source: 'manual',
          takeoff_id: null,
          active: 1,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const step = { ctx, trx, settings: ctx.auth.settings, at, places };
    const tree = await repriceAndLog(
      step,
      e.id,
      {
        action: 'created',
        summary: body.template_id !== undefined ? `Created from template ${body.template_id}` : 'Created',
        changes: { job_id: job.id, template_id: body.template_id ?? null },
      },
      { totalBefore: null },
    );
    await recordEstimateCreated(trx, tree.estimate);
    return estimateObject(tree);
  });
}

// ---- estimate-level changes ----

const PRICING_FIELDS = [
  'markup_method',
  'markup_rate',
  'contingency_rate',
  'tax_rate',
  'minimum_charge',
  'price_list_id',
] as const;

/** Re-prices catalog lines and cost lines from a newly chosen price list, except typed prices. */
async function applyPriceBook(trx: Trx, e: Estimate, book: PriceBook, at: string): Promise<void> {
  const tree = await loadTree(trx, e);
  const services = new Map(
    (
      await findServices(trx, e.firm_id, [
        ...new Set(tree.lines.map((l) => l.assembly_id).filter((id): id is number => id !== null)),
      ])
    ).map((s) => [s.id, s]),
  );
  for (const l of tree.lines) {
    if (l.estimating_mode !== 'unit_costing' || l.unit_price_typed === 1 || l.assembly_id === null) continue;
    const price = book.servicePrice.get(l.assembly_id) ?? services.get(l.assembly_id)?.unit_price_cents ?? null;
    if (price !== l.unit_price_cents)
      await trx
        .updateTable('estimate_lines')
        .set({ unit_price_cents: price, updated_at: at })
        .where('id', '=', l.id)
        .execute();
  }
  const itemIds = [
    ...new Set(
      [...tree.costLines.values()]
        .flat()
        .map((cl) => cl.catalog_item_id)
        .filter((id): id is number => id !== null),
    ),
  ];
  if (itemIds.length === 0) return;
  const items = new Map(
    (
      await trx
        .selectFrom('catalog_items')
        .select(['id', 'unit_cost_cents'])
        .where('firm_id', '=', e.firm_id)
        .where('id', 'in', itemIds)
        .execute()
    ).map((i) => [i.id, i.unit_cost_cents]),
  );
  for (const cl of [...tree.costLines.values()].flat()) {
    if (cl.catalog_item_id === null || cl.unit_cost_typed === 1) continue;
    const cost = book.itemCost.get(cl.catalog_item_id) ?? items.get(cl.catalog_item_id);
    if (cost !== undefined && cost !== cl.unit_cost_cents) {
      await trx
        .updateTable('estimate_cost_lines')
        .set({ unit_cost_cents: cost, updated_at: at })
        .where('id', '=', cl.id)
        .execute();
    }
  }
}

export async function updateEstimate(ctx: ServiceContext, id: number, body: UpdateEstimateInput) {
  const pricingTouched =
    body.pricing !== undefined || PRICING_FIELDS.some((f) => body[f] !== undefined) || body.job_costs !== undefined;
  if (body.pricing === null && PRICING_FIELDS.some((f) => body[f] !== undefined)) {
    throw invalidField(
      'pricing',
      'pricing: null resets to the workspace default; send it without other pricing fields',
    );
  }
  if (body.archived !== undefined && Object.keys(body).length > 1) {
    throw invalidField('archived', 'archived is changed on its own');
  }
  if (body.archived !== undefined) return setArchived(ctx, id, body.archived);
  const action = pricingTouched ? ('price' as const) : ('build' as const);
  return writeEstimate(ctx, id, { action, statuses: EDITABLE }, async (step) => {
    const { trx, tree, at, settings } = step;
    const e = tree.estimate;
    const changes: Partial<Estimate> = {};
    const logged: Record<string, unknown> = {};
    if (body.name !== undefined) changes.name = body.name.trim();
    if (body.pricing === null) changes.pricing = null;
    if (PRICING_FIELDS.some((f) => body[f] !== undefined)) {
      const next: StoredPricing = { ...effectivePricing(e, settings) };
      for (const f of PRICING_FIELDS)
        if (body[f] !== undefined) (next as unknown as Record<string, unknown>)[f] = body[f];
      if (next.markup_method === 'margin' && next.markup_rate >= 1) {
        throw invalidField('markup_rate', 'A margin is a fraction of price below 1');
      }
      if (body.price_list_id != null) {
        const list = await findPriceList(trx, e.firm_id, body.price_list_id);
        if (!list || list.archived_at !== null) throw notFound('Price list not found', { field: 'price_list_id' });
      }
      changes.pricing = JSON.stringify(next);
    }
    // The body schema bounds every job cost; the engine reads them exactly from their decimal text.
    if (body.job_costs !== undefined)
      changes.job_costs = body.job_costs === null ? null : JSON.stringify(body.job_costs);
    // The log shows pricing and job_costs as objects, not their stored JSON text.
    const readable = (k: string, v: unknown) =>
      (k === 'pricing' || k === 'job_costs') && typeof v === 'string' ? JSON.parse(v) : v;
    for (const [k, v] of Object.entries(changes)) {
      const before = (e as unknown as Record<string, unknown>)[k];
      if (before !== v) logged[k] = { from: readable(k, before), to: readable(k, v) };
    }
    if (Object.keys(changes).length > 0)
      await trx.updateTable('estimates').set(changes).where('id', '=', e.id).execute();
    const oldList = effectivePricing(e, settings).price_list_id;
    const newList =
      changes.pricing === undefined
        ? oldList
        : (changes.pricing === null ? workspacePricing(settings) : JSON.parse(changes.pricing)).price_list_id;
    if (newList !== oldList) await applyPriceBook(trx, e, await priceBookFor(trx, e.firm_id, newList), at);
    if (body.areas) {
      logged.areas = await applyAreas(step, body.areas);
      // Lines of a newly linked area take the measurement's quantities at once.
      const pulled = await pullTakeoffLines(step);
      if (pulled.length > 0) logged.lines_from_takeoff = pulled;
    }
    if (Object.keys(logged).length === 0) return null;
    return {
      action: pricingTouched ? 'pricing_changed' : 'estimate_changed',
      summary: `Changed ${Object.keys(logged).join(', ') || 'nothing'}`,
      changes: logged,
    };
  });
}

async function applyAreas(step: WriteStep, list: AreaInput[]) {
  const { trx, at, tree } = step;
  const e = tree.estimate;
  const areas = tree.areas;
  const out: unknown[] = [];
  /** A takeoff_id sent: checked (the user must see the measurement) and the area's quantity_source with it. */
  const link = async (a: AreaInput, i: number) => {
    if (a.takeoff_id === undefined) return {};
    if (a.takeoff_id !== null) await quantitiesOf(step, a.takeoff_id, `areas[${i}].takeoff_id`);
    return { takeoff_id: a.takeoff_id, quantity_source: a.takeoff_id === null ? 'manual' : 'takeoff' };
  };
  for (const [i, a] of list.entries()) {
    if (a.id === undefined) {
      const name = a.name?.trim();
      if (!name) throw invalidField(`areas[${i}].name`, 'A new area needs a name');
      if (areas.some((x) => nameKey(x.name) === nameKey(name))) {
        throw invalidField(`areas[${i}].name`, 'An area of that name exists');
      }
      const position = a.position ?? areas.reduce((m, x) => Math.max(m, x.position), 0) + 1;
      const row = {
        firm_id: e.firm_id,
        estimate_id: e.id,
        name,
        position,
        quantity_source: 'manual',
        takeoff_id: null as number | null,
        active: a.active === false ? (0 as const) : (1 as const),
        created_at: at,
        updated_at: at,
        ...(await link(a, i)),
      };
      const { id } = await trx.insertInto('estimate_areas').values(row).returning('id').executeTakeFirstOrThrow();
      areas.push({ id, ...row });
      out.push({ added: id, name, ...(row.takeoff_id === null ? {} : { takeoff_id: row.takeoff_id }) });
      continue;
    }
    const area = areas.find((x) => x.id === a.id);
    if (!area) throw notFound('Area not found', { field: `areas[${i}].id` });
    const set: Record<string, unknown> = {};
    if (a.name !== undefined && a.name.trim()) set.name = a.name.trim();
    if (a.active !== undefined) set.active = a.active ? 1 : 0;
    if (a.position !== undefined) set.position = a.position;
    const linked = await link(a, i);
    if (linked.takeoff_id !== undefined && linked.takeoff_id !== area.takeoff_id) Object.assign(set, linked);
    if (Object.keys(set).length > 0) {
      await trx
        .updateTable('estimate_areas')
        .set({ ...set, updated_at: at })
        .where('id', '=', area.id)
        .execute();
      Object.assign(area, set);
      out.push({ changed: area.id, ...set });
    }
  }
  return out;
}

async function setArchived(ctx: ServiceContext, id: number, archived: boolean, viaDelete = false) {
  const rule = {
    action: 'archive',
    statuses: ESTIMATE_STATUSES,
    archived: true,
    deletion: viaDelete,
    goneWhenArchived: viaDelete,
  } as const;
  return writeEstimate(ctx, id, rule, async ({ trx, tree, at }) => {
    const e = tree.estimate;
    // Already as asked (a repeat, or a concurrent call that got there first): nothing to log.
    if ((e.archived_at !== null) === archived) return null;
    await trx
      .updateTable('estimates')
      .set({ archived_at: archived ? (e.archived_at ?? at) : null })
      .where('id', '=', e.id)
      .execute();
    return { action: archived ? 'archived' : 'restored', summary: archived ? 'Archived' : 'Restored' };
  });
}

/** DELETE archives: a deletion the workspace's lock refuses, and a second DELETE is 404. PATCH {archived: true} stays repeatable. */
export const archiveEstimate = (ctx: ServiceContext, id: number) => setArchived(ctx, id, true, true);

export function recalculate(ctx: ServiceContext, id: number) {
  const rule = { action: 'recalculate', statuses: EDITABLE, refreshDriveTimes: true, treeUnchanged: true } as const;
  return writeEstimate(ctx, id, rule, async () => ({
    action: 'recalculated',
    summary: 'Recalculated',
  }));
}
