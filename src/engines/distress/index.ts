// The built-in pavement distress detector (issue 26; docs/condition-detector.md).
export { detectDistresses } from './detect.ts';
export { loadCv } from './cv.ts';
export * from './types.ts';
