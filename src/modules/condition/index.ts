// The condition area's public entry: what other areas, the demo seed and the CLI may use.
export { rateCondition } from './ratings/service.ts';
export { ratingUsage, type RatingUsage } from './ratings/usage.ts';
export { PHOTO_ANALYSIS_MAX_PX } from './ratings/image.ts';
export { decodeImageText } from './ratings/request.ts';
