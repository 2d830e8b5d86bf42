// The admin area's public entry: what other areas, the demo seed and the CLI may use. Everything
// else under src/modules/admin/ is the area's own (test/platform/boundaries.test.ts holds the line).

export { exportCatalog, importCatalog } from './catalog.ts';
export { createApiKey, createPartnerKey, listApiKeys, revokeApiKey, revokePartnerKey } from './keys.ts';
export { mailQueue, outboxMessage, outboxMessages, retryMail } from './mail.ts';
export { adminRoutes } from './routes.ts';
export { createUser, listUsers, removeUser, updateUser } from './users.ts';
export { addJobStage, createWorkspace, getWorkspace, listWorkspaces, updateWorkspace } from './workspaces.ts';
