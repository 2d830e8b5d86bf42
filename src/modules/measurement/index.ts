// The measurement area's entry: what other areas (and the demo seed) may use.
export { measurementNotFound } from './measurements/service.ts';
export { startMeasurement } from './measurements/start.ts';
export { saveEdits } from './shapes/save.ts';
