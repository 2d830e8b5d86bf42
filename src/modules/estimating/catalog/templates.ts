// Estimate templates: named areas of catalog services with optional quantities, which a new
// estimate can start from. Reads for any key with read_jobs; writes for the workspace owner or an
// estimating admin. Services named must be active and of the same workspace. DELETE archives and
// PATCH {archived: false} restores.
import type { Static } from '@sinclair/typebox';
import type { Executor } from '#db/dialect.ts';
import type { EstimateTemplate } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { alreadyArchived } from '#platform/records.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { findServices, findTemplate, type ListFilter } from './repo.ts';
import { templateQuantity } from './rules.ts';
import type { CreateTemplateBody, UpdateTemplateBody } from './schemas.ts';
import { templateAreas, templateBase } from './serialize.ts';
import { activeServices } from './services.ts';
import { archiveChange, assertCatalogAdmin, assertNameFree, listPage } from './shared.ts';

const templateNotFound = () => notFound('Estimate template not found');

/** Templates with their services' names and units, read in one query for all of them. */
export async function templateObjects(db: Executor, templates: EstimateTemplate[]) {
  const ids = new Set(templates.flatMap((t) => templateAreas(t).flatMap((a) => a.services.map((s) => s.service_id))));
  const services = new Map((await findServices(db, templates[0]?.firm_id ?? 0, [...ids])).map((s) => [s.id, s]));
  return templates.map((t) => ({
    ...templateBase(t),
    areas: templateAreas(t).map((a) => ({
      name: a.name,
      services: a.services.map((s) => {
        const svc = services.get(s.service_id)!;
        return {
          service_id: s.service_id,
          name: svc.name,
          unit: svc.unit,
          quantity: s.quantity === null ? null : Number(s.quantity),
        };
      }),
    })),
  }));
}

export async function templateObject(db: Executor, t: EstimateTemplate) {
  return (await templateObjects(db, [t]))[0]!;
}

/** A template's areas as stored: names trimmed, quantities as exact decimal text. */
export function storedAreas(areas: Static<typeof CreateTemplateBody>['areas']): string {
  return JSON.stringify(
    areas.map((a) => ({
      name: a.name.trim(),
      services: a.services.map((s) => ({ service_id: s.service_id, quantity: templateQuantity(s.quantity) })),
    })),
  );
}

export async function listTemplates(ctx: ServiceContext, filter: ListFilter, limit: number, offset: number) {
  const { rows, total } = await listPage(ctx, 'estimate_templates', filter, limit, offset);
  return { data: await templateObjects(ctx.database.db, rows as EstimateTemplate[]), total };
}

export async function getTemplate(ctx: ServiceContext, id: number) {
  const t = await findTemplate(ctx.database.db, ctx.auth.firm.id, id);
  if (!t) throw templateNotFound();
  return templateObject(ctx.database.db, t);
}

export async function createTemplate(ctx: ServiceContext, input: Static<typeof CreateTemplateBody>) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const name = input.name.trim();
    await assertNameFree(trx, 'estimate_templates', firmId, nameKey(name), null);
    await activeServices(
      trx,
      firmId,
      input.areas.flatMap((a) => a.services.map((s) => s.service_id)),
    );
    const t = now();
    const row = await trx
      .insertInto('estimate_templates')
      .values({
        firm_id: firmId,
        name,
        name_key: nameKey(name),
        description: input.description ?? null,
        areas: storedAreas(input.areas),
        archived_at: null,
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return templateObject(trx, row);
  });
}

export async function updateTemplate(
  ctx: ServiceContext,
  id: number,
  input: Static<typeof UpdateTemplateBody>,
  viaDelete = false,
) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const tpl = await findTemplate(trx, firmId, id);
    if (!tpl) throw templateNotFound();
    if (viaDelete && tpl.archived_at !== null) throw alreadyArchived(templateNotFound());
    if (viaDelete) assertDeletionAllowed(ctx);
    const t = now();
    const changes: Partial<EstimateTemplate> = { ...archiveChange(input.archived, tpl.archived_at, t) };
    if (input.name !== undefined && input.name.trim() !== tpl.name) {
      const name = input.name.trim();
      if (nameKey(name) !== tpl.name_key) await assertNameFree(trx, 'estimate_templates', firmId, nameKey(name), id);
      Object.assign(changes, { name, name_key: nameKey(name) });
    }
    if (input.description !== undefined && input.description !== tpl.description)
      changes.description = input.description;
    if (input.areas) {
      await activeServices(
        trx,
        firmId,
        input.areas.flatMap((a) => a.services.map((s) => s.service_id)),
      );
      const areas = storedAreas(input.areas);
      if (areas !== tpl.areas) changes.areas = areas;
    }
    if (Object.keys(changes).length === 0) return templateObject(trx, tpl);
    return templateObject(
      trx,
      await trx
        .updateTable('estimate_templates')
        .set({ ...changes, updated_at: t })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  });
}

/** DELETE archives; a second DELETE is 404 (document 1, retry rules). */
export function archiveTemplate(ctx: ServiceContext, id: number) {
  return updateTemplate(ctx, id, { archived: true }, true);
}
