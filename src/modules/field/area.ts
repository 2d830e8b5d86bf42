// The field-capture area (document 3, Photos, photo tags, files; Site assessments and pins): what
// crews record on site. Photo tags, photos, assessment services, site assessments and their pins,
// and the links a customer opens to an assessment's report and a site's capital plan (document 2);
// files and photo links follow.
import type { Area } from '#src/area.ts';
import { assessmentDefectTypeRoutes } from './assessment-defect-types/routes.ts';
import { assessmentPinRoutes } from './assessment-pins/routes.ts';
import { assessmentServiceRoutes } from './assessment-services/routes.ts';
import { giveStarterServices } from './assessment-services/service.ts';
import { assessmentShareLinkRoutes } from './assessment-share-links/routes.ts';
import { photoTagRoutes } from './photo-tags/routes.ts';
import { photoMergeMovers } from './photos/merge-movers.ts';
import { photoRoutes } from './photos/routes.ts';
import { planShareMergeMovers } from './plan-share-links/merge-movers.ts';
import { planShareLinkRoutes } from './plan-share-links/routes.ts';
import { assessmentMergeMovers } from './site-assessments/merge-movers.ts';
import { siteAssessmentRoutes } from './site-assessments/routes.ts';

export const fieldArea: Area = {
  name: 'field',
  routes: [
    photoTagRoutes,
    photoRoutes,
    assessmentServiceRoutes,
    assessmentDefectTypeRoutes,
    siteAssessmentRoutes,
    assessmentPinRoutes,
    assessmentShareLinkRoutes,
    planShareLinkRoutes,
  ],
  mergeMovers: { job: [...photoMergeMovers, ...assessmentMergeMovers], location: planShareMergeMovers },
  workspaceStarters: [giveStarterServices],
};
