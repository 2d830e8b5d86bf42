// Geometry on lat/lng for takeoffs (issue 27): areas on the sphere, lengths, containment, units.
export * from './shapes.ts';
export * from './sphere.ts';
export * from './units.ts';
export * from './clip.ts';
