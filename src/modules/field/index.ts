// The field area's public entry: what other areas, the demo seed and the CLI may use. Everything
// else under src/modules/field/ is the area's own (test/platform/boundaries.test.ts holds the line).

export { addPinPhotos, preflightPinPhotos } from './assessment-pins/photos.ts';
export { createPin } from './assessment-pins/service.ts';
export { createAssessmentShareLink } from './assessment-share-links/service.ts';
export { attachLibraryFile } from './files/library.ts';
export { recordFileUpload, recordServiceFileIn, type StoredFileObject, storeFileObject } from './files/service.ts';
export { createLibraryFolder } from './library-folders/service.ts';
export { createPhotoShareLink } from './photo-share-links/service.ts';
export { createPhotoTag } from './photo-tags/service.ts';
export { recordPhotoUpload, storeUpload } from './photos/service.ts';
export { enablePlanShareLink } from './plan-share-links/service.ts';
export { completeSiteAssessment, createSiteAssessment } from './site-assessments/service.ts';
