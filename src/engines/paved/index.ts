// The built-in paved-surface detector for aerial measurement (issue 27; docs/measurement-detector.md).
export { checkAerialInput, detectPaved } from './detect.ts';
export * from './types.ts';
