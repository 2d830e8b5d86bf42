// A plan opened for many calls, for a caller that keeps it somewhere else than where it runs (the
// API's engine thread, platform/engine-thread.ts, keeps what these return and closes it after):
// MuPDF loaded and the bytes opened in one call, and a finder that keeps each sheet's drawings and
// grey render between searches, as findPlants' caches do for a caller holding the maps itself.
import { openPlan, type PlanDocument } from './document.ts';
import { loadMupdf } from './mupdf.ts';
import type { Grey } from './raster-symbols.ts';
import { findPlants, type PlantFinding, type SymbolSample } from './symbols.ts';
import type { SheetBox } from './types.ts';
import type { PaintedPath } from './vector-paths.ts';

/** openPlan, MuPDF loaded first (once per process). */
export async function loadAndOpenPlan(bytes: Uint8Array): Promise<PlanDocument> {
  await loadMupdf();
  return openPlan(bytes);
}

/** The page count of plan bytes (openPlan's errors for anything unreadable). */
export async function countPlanPages(bytes: Uint8Array): Promise<number> {
  const plan = await loadAndOpenPlan(bytes);
  try {
    return plan.pageCount;
  } finally {
    plan.close();
  }
}

export interface PlantFinder {
  plan: PlanDocument;
  paths: Map<number, PaintedPath[]>;
  greys: Map<number, Grey>;
  close(): void;
}

/** A plan opened for find-plants: its sheets' drawings and greys are kept between searches. */
export async function openPlantFinder(bytes: Uint8Array): Promise<PlantFinder> {
  const plan = await loadAndOpenPlan(bytes);
  return { plan, paths: new Map(), greys: new Map(), close: () => plan.close() };
}

/** findPlants on the finder's plan, with its kept drawings and greys. */
export function findPlantsWith(
  finder: PlantFinder,
  page: number,
  sample: SymbolSample,
  exclude: SheetBox[],
): PlantFinding {
  return findPlants(finder.plan, page, sample, { exclude, paths: finder.paths, greys: finder.greys });
}
