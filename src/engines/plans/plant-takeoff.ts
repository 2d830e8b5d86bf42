// The plant takeoff in one call (docs/plan-reading.md, "Plant takeoff"): the schedule, the
// callouts of its codes, and dots at each plant's symbol on every sheet asked for, with the
// quantity rule of the takeoff (spec, Plan takeoff): a plant's quantity is the amount its callouts
// state, else one per dot (a typed total is the API's). Each sheet's text is read once and its
// drawing walked once, however many plants there are.
import { calloutTotals, readCallouts } from './callouts.ts';
import type { PlanDocument } from './document.ts';
import type { Grey } from './raster-symbols.ts';
import { findSchedule } from './schedule.ts';
import { sheetText } from './sheet-text.ts';
import { findPlants } from './symbols.ts';
import type { Callout, PlantSchedule, SheetText } from './types.ts';
import type { PaintedPath } from './vector-paths.ts';

export interface TakeoffPlant {
  code: string;
  name: string | null;
  common_name: string | null;
  size: string | null;
  /** The schedule's quantity (what the designer totalled), for comparison. */
  schedule_quantity: number | null;
  callout_quantity: number | null;
  dot_count: number;
  quantity: number;
  quantity_source: 'callouts' | 'dots';
  pages: number[];
  dots: { page: number; x: number; y: number }[];
  /** How the dots were found on each sheet, and what limited it. */
  methods: { page: number; method: 'vector' | 'raster' | 'none'; note: string | null }[];
}

export interface PlantTakeoff {
  schedule: PlantSchedule;
  callouts: Callout[];
  plants: TakeoffPlant[];
  /** Sheets without a text layer (scans): no schedule or callouts read there. */
  scanned_pages: number[];
}

export function readPlantTakeoff(
  plan: PlanDocument,
  options: { pages?: number[]; texts?: SheetText[]; schedule?: PlantSchedule } = {},
): PlantTakeoff {
  const pages = options.pages ?? Array.from({ length: plan.pageCount }, (_, i) => i + 1);
  const texts = options.texts ?? pages.map((p) => sheetText(plan, p));
  const schedule = options.schedule ?? findSchedule(texts);
  const exclude = schedule.page !== null && schedule.box !== null ? [{ page: schedule.page, box: schedule.box }] : [];
  const callouts = readCallouts(
    texts,
    schedule.rows.map((r) => r.code),
    { exclude },
  );
  const totals = calloutTotals(callouts);
  const paths = new Map<number, PaintedPath[]>();
  const greys = new Map<number, Grey>();
  const plants = schedule.rows.map((row): TakeoffPlant => {
    const dots: TakeoffPlant['dots'] = [];
    const methods: TakeoffPlant['methods'] = [];
    if (row.symbol_box && schedule.page !== null) {
      for (const page of pages) {
        const found = findPlants(
          plan,
          page,
          { page: schedule.page, box: row.symbol_box },
          {
            exclude: exclude.filter((e) => e.page === page).map((e) => e.box),
            paths,
            greys,
          },
        );
        methods.push({ page, method: found.method, note: found.note });
        for (const d of found.dots) dots.push({ page, ...d });
      }
    }
    const stated = totals.get(row.code) ?? null;
    return {
      code: row.code,
      name: row.botanical_name,
      common_name: row.common_name,
      size: row.size,
      schedule_quantity: row.quantity,
      callout_quantity: stated,
      dot_count: dots.length,
      quantity: stated ?? dots.length,
      quantity_source: stated !== null ? 'callouts' : 'dots',
      pages: [
        ...new Set([...dots.map((d) => d.page), ...callouts.filter((c) => c.code === row.code).map((c) => c.page)]),
      ].sort((a, b) => a - b),
      dots,
      methods,
    };
  });
  return { schedule, callouts, plants, scanned_pages: texts.filter((t) => !t.hasTextLayer).map((t) => t.page) };
}
