// The plan-reading engine for landscape plan takeoffs (issue 28; docs/plan-reading.md): PDF bytes
// in, findings out, no database and no HTTP. Open a plan once (openPlan, after loadMupdf: MuPDF is
// loaded on first use) and pass the PlanDocument to everything else, so a many-sheet plan is parsed
// once; close() it when done.
export { calloutTotals, readCallouts, type CalloutOptions } from './callouts.ts';
export { openPlan, PlanDocument, renderSheet, SHEET_DPI, type RenderedSheet } from './document.ts';
export { loadMupdf } from './mupdf.ts';
export { countPlanPages, findPlantsWith, loadAndOpenPlan, openPlantFinder, type PlantFinder } from './opened.ts';
export { NotReadablePdf, type NotReadableReason } from './errors.ts';
export {
  type CountedItem,
  type IrrigationFindings,
  type PipeRun,
  readIrrigation,
  type Zone,
} from './irrigation.ts';
export { findIrrigationLegend, type IrrigationLegend, type LegendRow } from './irrigation-legend.ts';
export { type PlantTakeoff, readPlantTakeoff, type TakeoffPlant } from './plant-takeoff.ts';
export { parseScale, type SheetScale, sheetScale } from './scale.ts';
export { findSchedule, readScheduleAt } from './schedule.ts';
export { sheetText } from './sheet-text.ts';
export { findPlants, type FindOptions, type PlantFinding, type SymbolSample } from './symbols.ts';
export { paintedPaths, type PaintedPath } from './vector-paths.ts';
export * from './types.ts';

import type { PlanDocument } from './document.ts';
import { sheetText } from './sheet-text.ts';
import type { SheetText } from './types.ts';

/** Every sheet's text, in page order (what findSchedule and readCallouts read). */
export function planText(plan: PlanDocument): SheetText[] {
  return Array.from({ length: plan.pageCount }, (_, i) => sheetText(plan, i + 1));
}
