// The field-capture area (document 3, Photos, photo tags, files; Site assessments and pins): what
// crews record on site. Photo tags and the assessment services so far; photos, files, share links
// and assessments follow.
import type { Area } from '#src/area.ts';
import { assessmentServiceRoutes } from './assessment-services/routes.ts';
import { giveStarterServices } from './assessment-services/service.ts';
import { photoTagRoutes } from './photo-tags/routes.ts';

export const fieldArea: Area = {
  name: 'field',
  routes: [photoTagRoutes, assessmentServiceRoutes],
  workspaceStarters: [giveStarterServices],
};
