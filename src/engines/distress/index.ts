// The built-in pavement distress detector (issue 26; docs/condition.md, "The built-in distress detector").
export { detectDistresses } from './detect.ts';
export { loadCv } from './cv.ts';
export * from './types.ts';
