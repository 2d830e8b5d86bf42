// The measurement area's entry: what other areas may use.
export { measurementNotFound } from './measurements/service.ts';
