// /v1/tasks: job follow-ups (document 2, Follow-ups), with the routes every follow-up resource has.
import type { Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import type { ApiApp } from '#platform/routes.ts';
import { followUpFilterOf, followUpResourceRoutes } from './follow-up-routes.ts';
import { CreateTaskBody, ListTasksQuery, UpdateTaskBody } from './schemas.ts';
import { TaskSchema } from './serialize.ts';
import { createTask, deleteTask, getTask, listTasksOf, updateTask } from './service.ts';

export function taskRoutes(app: ApiApp, env: Env): void {
  followUpResourceRoutes(app, env, {
    path: '/v1/tasks',
    schemas: { object: TaskSchema, create: CreateTaskBody, update: UpdateTaskBody, list: ListTasksQuery },
    summaries: {
      create: 'Add a follow-up to a job (each call adds one)',
      list: 'List job follow-ups, soonest due first (with updated_after: oldest updated first)',
      read: 'Read a job follow-up',
      update: 'Change a job follow-up; status done completes it, open reopens it',
      delete: 'Delete a job follow-up',
    },
    query: (q) => ({ filter: { ...followUpFilterOf(q), jobId: q.job_id }, page: pageOf(q) }),
    create: createTask,
    list: listTasksOf,
    read: getTask,
    update: updateTask,
    remove: deleteTask,
  });
}
