// The integrations area (document 1, Events and document 3, Bulk data export): webhook
// subscriptions and their delivery log, the event feed, bulk export, and the MCP server for AI
// assistants (every operation as a tool).
import type { Area } from '#src/area.ts';
import { eventsDataset } from './events/export.ts';
import { eventFeedRoutes } from './events/routes.ts';
import { exportRoutes } from './exports/routes.ts';
import { workspaceExportTask } from './exports/workspace-file.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { mcpRoutes } from './mcp/routes.ts';

export const integrationsArea: Area = {
  name: 'integrations',
  routes: [exportRoutes, webhookRoutes, eventFeedRoutes, mcpRoutes],
  exportDatasets: [eventsDataset],
  workerTasks: (env, settings) => [
    workspaceExportTask(env.database, { dataDir: env.deps.dataDir, clock: env.deps.clock, leaseMs: settings.leaseMs }),
  ],
};
