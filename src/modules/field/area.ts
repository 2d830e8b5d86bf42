// The field-capture area (document 3, Photos, photo tags, files; Site assessments and pins): what
// crews record on site. Photo tags, photos, assessment services, site assessments and their pins,
// the links a customer opens (document 2: photo report link, chosen-photo links, an assessment's
// report, a site's capital plan), and the files kept on jobs, customers and in the Company Library.
import type { Area } from '#src/area.ts';
import { assessmentDefectTypeRoutes } from './assessment-defect-types/routes.ts';
import { assessmentPinRoutes } from './assessment-pins/routes.ts';
import { assessmentServiceRoutes } from './assessment-services/routes.ts';
import { giveStarterServices } from './assessment-services/service.ts';
import { photoSelectionShareRoutes } from './photo-selection-shares/routes.ts';
import { photoShareMergeMovers } from './photo-share-links/merge-movers.ts';
import { photoShareLinkRoutes } from './photo-share-links/routes.ts';
import { fileAccountMergeMovers, fileContactMergeMovers, fileJobMergeMovers } from './files/merge-movers.ts';
import { fileRoutes } from './files/routes.ts';
import { contactFileObjects, jobFileObjects } from './files/stored-objects.ts';
import { libraryFolderRoutes } from './library-folders/routes.ts';
import { photoTagRoutes } from './photo-tags/routes.ts';
import { photoMergeMovers } from './photos/merge-movers.ts';
import { photoRoutes } from './photos/routes.ts';
import { jobPhotoObjects } from './photos/stored-objects.ts';
import { assessmentShareLinkRoutes } from './assessment-share-links/routes.ts';
import { planShareMergeMovers } from './plan-share-links/merge-movers.ts';
import { planShareLinkRoutes } from './plan-share-links/routes.ts';
import { assessmentMergeMovers } from './site-assessments/merge-movers.ts';
import { siteAssessmentRoutes } from './site-assessments/routes.ts';

import { photoReportPage } from './photo-share-links/page.ts';
import { photoSelectionPage } from './photo-selection-shares/page.ts';
import { assessmentReportPage } from './assessment-share-links/page.ts';
import { capitalPlanPage } from './plan-share-links/page.ts';
export const fieldArea: Area = {
  name: 'field',
  routes: [
    photoTagRoutes,
    photoRoutes,
    assessmentServiceRoutes,
    assessmentDefectTypeRoutes,
    siteAssessmentRoutes,
    assessmentPinRoutes,
    photoShareLinkRoutes,
    photoSelectionShareRoutes,
    libraryFolderRoutes,
    fileRoutes,
    assessmentShareLinkRoutes,
    planShareLinkRoutes,
  ],
  pages: [photoReportPage, photoSelectionPage, assessmentReportPage, capitalPlanPage],
  mergeMovers: {
    job: [...photoMergeMovers, ...assessmentMergeMovers, ...photoShareMergeMovers, ...fileJobMergeMovers],
    client_account: fileAccountMergeMovers,
    contact: fileContactMergeMovers,
    location: planShareMergeMovers,
  },
  workspaceStarters: [giveStarterServices],
  storedObjects: { job: [jobPhotoObjects, jobFileObjects], contact: [contactFileObjects] },
};
