// The field-capture area (document 3, Photos, photo tags, files; Site assessments and pins): what
// crews record on site. Photo tags so far; photos, files, share links and assessments follow.
import type { Area } from '#src/area.ts';
import { photoTagRoutes } from './photo-tags/routes.ts';

export const fieldArea: Area = {
  name: 'field',
  routes: [photoTagRoutes],
};
