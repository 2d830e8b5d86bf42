// /v1/account-tasks: company follow-ups (document 2, Follow-ups), with the routes every follow-up
// resource has (crm/tasks/follow-up-routes.ts).
import type { Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import type { ApiApp } from '#platform/routes.ts';
import { followUpFilterOf, followUpResourceRoutes } from '#crm/tasks/follow-up-routes.ts';
import { CreateAccountTaskBody, ListAccountTasksQuery, UpdateAccountTaskBody } from './schemas.ts';
import { AccountTaskSchema } from './serialize.ts';
import {
  createAccountTask,
  deleteAccountTask,
  getAccountTask,
  listAccountTasksOf,
  updateAccountTask,
} from './service.ts';

export function accountTaskRoutes(app: ApiApp, env: Env): void {
  followUpResourceRoutes(app, env, {
    path: '/v1/account-tasks',
    schemas: {
      object: AccountTaskSchema,
      create: CreateAccountTaskBody,
      update: UpdateAccountTaskBody,
      list: ListAccountTasksQuery,
    },
    summaries: {
      create: "Add a follow-up to a customer (title defaults from the type and the customer's name)",
      list: 'List company follow-ups, soonest due first (with updated_after: oldest updated first)',
      read: 'Read a company follow-up',
      update:
        'Change a company follow-up; status done completes it (a repeating one moves to its next round and stays open)',
      delete: 'Delete a company follow-up',
    },
    query: (q) => ({ filter: { ...followUpFilterOf(q), clientAccountId: q.client_account_id }, page: pageOf(q) }),
    create: createAccountTask,
    list: listAccountTasksOf,
    read: getAccountTask,
    update: updateAccountTask,
    remove: deleteAccountTask,
  });
}
