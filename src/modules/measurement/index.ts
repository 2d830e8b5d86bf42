// The measurement area's entry: what other areas (and the demo seed) may use.
export { measurementNotFound } from './measurements/service.ts';
export { startMeasurement } from './measurements/start.ts';
export { saveEdits } from './shapes/save.ts';
export { createAerialTakeoff } from './landscape/takeoffs.ts';
export { getRun as getLandscapeRun, startDetect } from './landscape/runs.ts';
export { startPlanTakeoff } from './landscape/plans/start.ts';
export { startPlanRun } from './landscape/plans/runs.ts';
export { landscapeRunTask } from './landscape/run-worker.ts';
export { setTakeoffCleanup } from './landscape/cleanup.ts';
