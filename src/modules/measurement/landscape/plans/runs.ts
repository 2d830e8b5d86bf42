// Starting a plan takeoff's runs (docs/landscape.md, "Plan runs"): read-callouts, find-plants,
// group-plants, advanced-run and irrigation, each a 202 run the worker does (run-work.ts). The
// request is checked here: a plan takeoff not out for cleanup, pages it took off (400 Page n is
// not in this PDF past its page count; 404 for a page it did not take off), its own plants. Runs
// on a plan are free: its credit was used when its pages were stored.
import type { LandscapeRunKind } from '#db/tables/landscape.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { changeableTakeoff } from '../items.ts';
import { assertRoomForRun, insertRun, startedRun } from '../runs.ts';
import { notAPlanTakeoff, pageNotInPdf, plantNotFound, sheetNotFound } from './errors.ts';
import { DEFAULT_GROUP_PX } from './group.ts';
import { plantNames, storedPages } from './repo.ts';
import type { PlanRunRequest } from './run-work.ts';

export type PlanRunKind = Exclude<LandscapeRunKind, 'detect' | 'plan'>;

export interface PlanRunBody {
  pages?: number[];
  plant_ids?: number[];
  within_px?: number;
  apply?: boolean;
}

/** The pages asked for, each one the takeoff took off (the default: all of them). */
export async function takenOffPages(
  ctx: ServiceContext,
  t: { id: number; page_count: number | null },
  pages: number[] | undefined,
  field = 'pages',
): Promise<number[]> {
  const stored = await storedPages(ctx.database.db, t.id);
  if (pages === undefined) return stored;
  const have = new Set(stored);
  for (const p of pages) {
    if (p > (t.page_count ?? 0)) throw pageNotInPdf(p, t.page_count ?? 0, field);
    if (!have.has(p)) throw sheetNotFound(p);
  }
  return [...pages].sort((a, b) => a - b);
}

export async function planTakeoffForChange(ctx: ServiceContext, id: number) {
  const t = await changeableTakeoff(ctx, id);
  if (t.type !== 'blueprint') throw notAPlanTakeoff();
  return t;
}

export async function startPlanRun(ctx: ServiceContext, takeoffId: number, kind: PlanRunKind, body: PlanRunBody) {
  const t = await planTakeoffForChange(ctx, takeoffId);
  const pages = await takenOffPages(ctx, t, body.pages);
  if (body.plant_ids !== undefined) {
    const names = await plantNames(ctx.database.db, t.id);
    if (body.plant_ids.some((id) => !names.has(id))) throw plantNotFound('plant_ids');
  }
  const request: PlanRunRequest = {
    pages,
    plant_ids: body.plant_ids ?? null,
    ...(kind === 'group_plants' ? { within_px: body.within_px ?? DEFAULT_GROUP_PX } : {}),
    ...(kind === 'irrigation' ? { apply: body.apply ?? false } : {}),
  };
  const id = await inWorkspaceTransaction(ctx, async (trx) => {
    await assertRoomForRun(trx, ctx.auth.firm.id);
    return insertRun(trx, ctx, { job_id: t.job_id, takeoff_id: t.id, kind, request });
  });
  return startedRun(ctx, id);
}
