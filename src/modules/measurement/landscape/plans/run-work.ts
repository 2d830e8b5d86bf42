// The worker's plan runs (docs/landscape.md, "Plan runs"). Each reads what it needs outside any
// transaction (the stored PDF, or the sheets' stored text), then writes its change in one short
// transaction under the workspace lock, worked out against the takeoff as it is then (no race to
// retry). Runs replace only model-found dots (source detected) of the plants and sheets they
// read, a quantity typed on one included; an undo puts them back.
import type { LandscapeItem, LandscapeRun, LandscapeTakeoff } from '#db/tables.ts';
import type { Executor } from '#db/dialect.ts';
import { type PlantSchedule, readCallouts, type SheetText } from '#engines/plans/index.ts';
import type { Env } from '#platform/context.ts';
import { forbidden } from '#platform/errors.ts';
import type { RunHooks } from '../run-hooks.ts';
import { saveChange, type NewItem } from '../save.ts';
import { calloutDotsOf, dotItem, scheduleExclusion } from './read.ts';
import { DEFAULT_GROUP_PX, type DotGroup, groupDots } from './group.ts';
import { irrigationOf } from './irrigation.ts';
import type { StoredIrrigation } from './quantities.ts';
import { plantsOf, sheetTexts } from './repo.ts';
import { storeAndReadPlan } from './store.ts';
import {
  findPlantsOnThread,
  openStoredFinder,
  openStoredPlan,
  readIrrigationOnThread,
  readPlantTakeoffOnThread,
} from './on-thread.ts';

/** What a plan run other than `plan` is asked (the run's request). */
export interface PlanRunRequest {
  pages: number[];
  plant_ids: number[] | null;
  within_px?: number;
  apply?: boolean;
}

export async function doPlanRun(env: Env, run: LandscapeRun, hooks: RunHooks): Promise<void> {
  if (run.kind === 'plan') return storeAndReadPlan(env, run, hooks);
  const { db } = env.database;
  const takeoff = await db
    .selectFrom('landscape_takeoffs')
    .selectAll()
    .where('id', '=', run.takeoff_id!)
    .executeTakeFirst();
  // Gone with its job: so is the run, and finishing it ends in LeaseLost.
  if (!takeoff) return hooks.finish(async () => ({ result: null }));
  const req = JSON.parse(run.request) as PlanRunRequest;
  const schedule = JSON.parse(takeoff.schedule ?? 'null') as PlantSchedule | null;
  const texts = await sheetTexts(db, takeoff.id, req.pages);
  switch (run.kind) {
    case 'read_callouts':
      return readCalloutsRun(env, run, hooks, req, texts, schedule);
    case 'find_plants':
      return findPlantsRun(env, run, hooks, req, takeoff, schedule);
    case 'group_plants':
      return groupPlantsRun(run, hooks, req);
    case 'advanced_run':
      return advancedRun(env, run, hooks, req, takeoff, texts, schedule);
    case 'irrigation':
      return irrigationRun(env, run, hooks, req, takeoff, texts);
    default:
      throw new Error(`Unknown landscape run kind ${run.kind}`);
  }
}

interface Replacement {
  add: NewItem[];
  /** Which of the takeoff's current items the run's finding replaces. */
  replaces: (item: LandscapeItem) => boolean;
  irrigation?: StoredIrrigation | null;
}

/** Saves the run's change against the takeoff as it is now, in the finishing transaction. */
async function saveRunChange(
  trx: Executor,
  run: LandscapeRun,
  build: (takeoff: LandscapeTakeoff, plants: { id: number; code: string }[], items: LandscapeItem[]) => Replacement,
) {
  const fresh = await trx
    .selectFrom('landscape_takeoffs')
    .selectAll()
    .where('id', '=', run.takeoff_id!)
    .executeTakeFirstOrThrow();
  if (fresh.cleanup === 'sent') throw forbidden('Takeoff sent for cleanup', { code: 'takeoff_sent_for_cleanup' });
  const [items, plants] = await Promise.all([
    trx
      .selectFrom('landscape_items')
      .selectAll()
      .where('takeoff_id', '=', fresh.id)
      .where('kind', '=', 'dot')
      .execute(),
    plantsOf(trx, fresh.id),
  ]);
  const change = build(fresh, plants, items);
  const remove = items.filter(change.replaces).map((i) => i.id);
  const saved = await saveChange(trx, fresh, run.created_by_user_id, {
    change: 'plan_run',
    runId: run.id,
    add: change.add,
    remove,
    ...(change.irrigation !== undefined ? { irrigation: change.irrigation } : {}),
  });
  return { saved, removed: remove.length, added: change.add.length };
}

const onPages = (pages: number[]) => {
  const set = new Set(pages);
  return (i: LandscapeItem) => i.page !== null && set.has(i.page);
};
const found = (i: LandscapeItem) => i.source === 'detected';

async function readCalloutsRun(
  env: Env,
  run: LandscapeRun,
  hooks: RunHooks,
  req: PlanRunRequest,
  texts: SheetText[],
  schedule: PlantSchedule | null,
) {
  const plants = await plantsOf(env.database.db, run.takeoff_id!);
  const callouts = schedule
    ? readCallouts(
        texts,
        plants.map((p) => p.code),
        { exclude: scheduleExclusion(schedule) },
      )
    : [];
  const page = onPages(req.pages);
  await hooks.finish(async (trx) => {
    const out = await saveRunChange(trx, run, (_t, current) => ({
      add: calloutDotsOf(callouts, current, run.id),
      replaces: (i) => found(i) && i.class === 'callout' && page(i),
    }));
    return { result: { takeoff_id: run.takeoff_id, rev: out.saved.rev, callouts: out.added, removed: out.removed } };
  });
}

async function findPlantsRun(
  env: Env,
  run: LandscapeRun,
  hooks: RunHooks,
  req: PlanRunRequest,
  takeoff: LandscapeTakeoff,
  schedule: PlantSchedule | null,
) {
  const plants = (await plantsOf(env.database.db, takeoff.id)).filter(
    (p) => req.plant_ids === null || req.plant_ids.includes(p.id),
  );
  const skipped: { plant_id: number; code: string; reason: string }[] = [];
  const perPlant: {
    plant_id: number;
    code: string;
    dots: number;
    methods: { page: number; method: string; note: string | null }[];
  }[] = [];
  const dots: { plantId: number; page: number; x: number; y: number }[] = [];
  const searched = new Set<number>();
  const samplePage = schedule?.page ?? null;
  if (samplePage === null)
    for (const p of plants)
      skipped.push({ plant_id: p.id, code: p.code, reason: 'No plant schedule: place it with PUT …/schedule' });
  else {
    const finder = await openStoredFinder(env, takeoff.plan_key!);
    try {
      const exclude = scheduleExclusion(schedule!);
      for (const p of plants) {
        if (p.symbol_box === null) {
          skipped.push({ plant_id: p.id, code: p.code, reason: 'The schedule shows no symbol for this plant' });
          continue;
        }
        searched.add(p.id);
        const methods: (typeof perPlant)[number]['methods'] = [];
        let n = 0;
        for (const page of req.pages) {
          const f = await findPlantsOnThread([
            finder.ref,
            page,
            { page: samplePage, box: JSON.parse(p.symbol_box) },
            exclude.filter((e) => e.page === page).map((e) => e.box),
          ]);
          methods.push({ page, method: f.method, note: f.note });
          for (const d of f.dots) dots.push({ plantId: p.id, page, ...d });
          n += f.dots.length;
        }
        perPlant.push({ plant_id: p.id, code: p.code, dots: n, methods });
        await hooks.renew();
      }
    } finally {
      await finder.close();
    }
  }
  const page = onPages(req.pages);
  await hooks.finish(async (trx) => {
    const out = await saveRunChange(trx, run, (_t, current) => {
      const still = new Set(current.map((p) => p.id));
      return {
        add: dots.filter((d) => still.has(d.plantId)).map((d) => dotItem({ ...d, kind: 'plant', runId: run.id })),
        replaces: (i) => found(i) && i.class === 'plant' && page(i) && i.plant_id !== null && searched.has(i.plant_id),
      };
    });
    return {
      result: {
        takeoff_id: run.takeoff_id,
        rev: out.saved.rev,
        dots: out.added,
        removed: out.removed,
        plants: perPlant,
        skipped,
      },
    };
  });
}

async function groupPlantsRun(run: LandscapeRun, hooks: RunHooks, req: PlanRunRequest) {
  const pages = new Set(req.pages);
  await hooks.finish(async (trx) => {
    let groups: DotGroup[] = [];
    // Grouped on the dots as they are in this transaction.
    const out = await saveRunChange(trx, run, (_t, _plants, items) => {
      groups = groupDots(
        items.filter(
          (d) =>
            d.class === 'plant' &&
            d.page !== null &&
            pages.has(d.page) &&
            (req.plant_ids === null || (d.plant_id !== null && req.plant_ids.includes(d.plant_id))),
        ),
        req.within_px ?? DEFAULT_GROUP_PX,
      );
      const members = new Set(groups.flatMap((g) => g.members));
      return {
        add: groups.map((g) => dotItem({ ...g, kind: 'plant', runId: run.id })),
        replaces: (i) => members.has(i.id),
      };
    });
    return {
      result: {
        takeoff_id: run.takeoff_id,
        rev: out.saved.rev,
        groups: groups.length,
        dots_grouped: groups.reduce((s, g) => s + g.members.length, 0),
      },
    };
  });
}

async function advancedRun(
  env: Env,
  run: LandscapeRun,
  hooks: RunHooks,
  req: PlanRunRequest,
  takeoff: LandscapeTakeoff,
  texts: SheetText[],
  schedule: PlantSchedule | null,
) {
  const plan = await openStoredPlan(env, takeoff.plan_key!);
  let read: Awaited<ReturnType<typeof readPlantTakeoffOnThread>>;
  try {
    read = await readPlantTakeoffOnThread([plan.ref, { pages: req.pages, texts, ...(schedule ? { schedule } : {}) }]);
  } finally {
    await plan.close();
  }
  const page = onPages(req.pages);
  await hooks.finish(async (trx) => {
    const out = await saveRunChange(trx, run, (_t, current) => {
      const byCode = new Map(current.map((p) => [p.code.toUpperCase(), p.id]));
      const add = calloutDotsOf(read.callouts, current, run.id);
      for (const p of read.plants) {
        const plantId = byCode.get(p.code.toUpperCase());
        if (plantId === undefined) continue;
        for (const d of p.dots)
          add.push(dotItem({ plantId, kind: 'plant', page: d.page, x: d.x, y: d.y, runId: run.id }));
      }
      return { add, replaces: (i) => found(i) && page(i) };
    });
    return {
      result: {
        takeoff_id: run.takeoff_id,
        rev: out.saved.rev,
        dots: out.added,
        removed: out.removed,
        callouts: read.callouts.length,
        scanned_pages: read.scanned_pages,
        plants: read.plants.map((p) => ({
          code: p.code,
          callout_quantity: p.callout_quantity,
          dot_count: p.dot_count,
          methods: p.methods,
        })),
      },
    };
  });
}

async function irrigationRun(
  env: Env,
  run: LandscapeRun,
  hooks: RunHooks,
  req: PlanRunRequest,
  takeoff: LandscapeTakeoff,
  texts: SheetText[],
) {
  const plan = await openStoredPlan(env, takeoff.plan_key!);
  let findings: Awaited<ReturnType<typeof readIrrigationOnThread>>;
  try {
    findings = await readIrrigationOnThread([plan.ref, texts]);
  } finally {
    await plan.close();
  }
  const irrigation = irrigationOf(findings);
  const read = { legend: findings.legend.status, notes: findings.notes, irrigation };
  await hooks.finish(async (trx) => {
    if (!req.apply) return { result: { takeoff_id: run.takeoff_id, applied: false, ...read } };
    let previous: StoredIrrigation | null = null;
    const out = await saveRunChange(trx, run, (t) => {
      previous = t.irrigation === null ? null : (JSON.parse(t.irrigation) as StoredIrrigation);
      return { add: [], replaces: () => false, irrigation };
    });
    return {
      result: { takeoff_id: run.takeoff_id, rev: out.saved.rev, applied: true, ...read, previous_irrigation: previous },
    };
  });
}
