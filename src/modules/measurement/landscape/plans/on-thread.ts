// The plan engine's work, on the engine thread (platform/engine-thread.ts): MuPDF renders, reads
// and searches a plan for seconds (0.1 s and more a sheet, and a plan may have 500), which on the
// main thread held every other request to the server that long. A run opens the stored plan there
// once, as a session, calls the engine on it sheet by sheet, and closes it.
import {
  type countPlanPages,
  type findPlantsWith,
  type loadAndOpenPlan,
  NotReadablePdf,
  type openPlantFinder,
  type readIrrigation,
  type readPlantTakeoff,
  type renderSheet,
  type sheetText,
} from '#engines/plans/index.ts';
import type { Env } from '#platform/context.ts';
import { onEngineThread, openOnEngineThread } from '#platform/engine-thread.ts';
import { ObjectNotFound } from '#platform/storage/errors.ts';
import { ApiError } from '#platform/errors.ts';
import { notReadablePdf } from './errors.ts';
import { storedPlan } from './source.ts';

const PLANS = '#engines/plans/index.ts';
const knownErrors = { errors: [NotReadablePdf] };

export const countPagesOnThread = onEngineThread<typeof countPlanPages>(PLANS, 'countPlanPages', knownErrors);
export const renderSheetOnThread = onEngineThread<typeof renderSheet>(PLANS, 'renderSheet');
export const sheetTextOnThread = onEngineThread<typeof sheetText>(PLANS, 'sheetText');
export const findPlantsOnThread = onEngineThread<typeof findPlantsWith>(PLANS, 'findPlantsWith');
export const readPlantTakeoffOnThread = onEngineThread<typeof readPlantTakeoff>(PLANS, 'readPlantTakeoff');
export const readIrrigationOnThread = onEngineThread<typeof readIrrigation>(PLANS, 'readIrrigation');
const openPlan = openOnEngineThread<typeof loadAndOpenPlan>(PLANS, 'loadAndOpenPlan', knownErrors);
const openFinder = openOnEngineThread<typeof openPlantFinder>(PLANS, 'openPlantFinder', knownErrors);

const planMissing = () =>
  new ApiError(422, 'The stored plan is gone', { code: 'plan_missing', message: 'Start the takeoff again' });

/**
 * Bytes to hand the thread, and the buffer that can move there with them: a Buffer that shares
 * its memory with others (Node's pool for small ones) is copied first, never moved.
 */
function movable(bytes: Uint8Array): { data: Uint8Array; transfer: ArrayBuffer[] } {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const data = own ? bytes : new Uint8Array(bytes);
  return { data, transfer: [data.buffer as ArrayBuffer] };
}

async function stored(env: Env, key: string) {
  try {
    return movable(await storedPlan(env, key));
  } catch (err) {
    if (err instanceof ObjectNotFound) throw planMissing();
    throw err;
  }
}

async function refusedUnreadable<T>(open: Promise<T>): Promise<T> {
  try {
    return await open;
  } catch (err) {
    if (err instanceof NotReadablePdf) throw notReadablePdf(err.message);
    throw err;
  }
}

/** The stored PDF opened on the thread, or the run's refusal (a PDF that stopped being readable, or is gone). */
export async function openStoredPlan(env: Env, key: string) {
  const { data, transfer } = await stored(env, key);
  return refusedUnreadable(openPlan([data], transfer));
}

/** The same, opened for find-plants (its sheets' drawings and greys kept between searches). */
export async function openStoredFinder(env: Env, key: string) {
  const { data, transfer } = await stored(env, key);
  return refusedUnreadable(openFinder([data], transfer));
}
