// The workspace area (document 1): the workspace's users as the API shows them.
import type { Area } from '#src/area.ts';
import { userRoutes } from './users/routes.ts';

export const workspaceArea: Area = {
  name: 'workspace',
  routes: [userRoutes],
};
