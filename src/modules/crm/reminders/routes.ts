// /v1/reminders (document 2, "Re-bids, reminders, follow-ups": the reminder rows; POST and the single
// read are ours, docs/api-decisions.md "Reminders and follow-ups").
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { bodyOptional, IdParam, ListOf, One } from '#platform/schemas.ts';
import { dueBound } from '#crm/tasks/schemas.ts';
import {
  CompleteReminderBody,
  CreateReminderBody,
  DismissReminderBody,
  ListRemindersQuery,
  UpdateReminderBody,
} from './schemas.ts';
import { ReminderSchema } from './serialize.ts';
import {
  completeReminder,
  createReminder,
  dismissReminder,
  getReminder,
  listRemindersOf,
  updateReminder,
} from './service.ts';

const tags = ['Reminders'];

export function reminderRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/reminders',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          'Add a reminder (contract renewal, maintenance check-in or follow-up); its assignee is emailed when it comes due',
        body: CreateReminderBody,
        response: { 201: One(ReminderSchema) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createReminder(ctx(request), request.body) }),
  );

  app.get(
    '/v1/reminders',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: 'List reminders, soonest due first (status open by default: pending or sent)',
        querystring: ListRemindersQuery,
        response: { 200: ListOf(ReminderSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await listRemindersOf(
        ctx(request),
        {
          status: q.status ?? 'open',
          reminderType: q.reminder_type,
          clientAccountId: q.client_account_id,
          contactId: q.contact_id,
          jobId: q.job_id,
          assignedToUserId: q.assigned_to_user_id,
          dueBefore: dueBound(q.due_before, 'due_before'),
          dueAfter: dueBound(q.due_after, 'due_after'),
        },
        page,
      );
      return listEnvelope(data, total, page);
    },
  );

  app.get(
    '/v1/reminders/:reminder_id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: 'Read a reminder',
        params: IdParam('reminder_id'),
        response: { 200: One(ReminderSchema) },
      },
    },
    async (request) => ({ data: await getReminder(ctx(request), request.params.reminder_id) }),
  );

  app.patch(
    '/v1/reminders/:reminder_id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary: 'Change a reminder: title, description, due (local, read in timezone) or snooze, repeat, assignee',
        params: IdParam('reminder_id'),
        body: UpdateReminderBody,
        response: { 200: One(ReminderSchema) },
      },
    },
    async (request) => ({ data: await updateReminder(ctx(request), request.params.reminder_id, request.body) }),
  );

  app.post(
    '/v1/reminders/:reminder_id/complete',
    {
      config: { permissions: ['write_jobs'] },
      preValidation: bodyOptional,
      schema: {
        tags,
        summary:
          'Complete a reminder (a repeating one rolls to its next round and stays open); notes are logged on the linked record',
        params: IdParam('reminder_id'),
        body: CompleteReminderBody,
        response: { 200: One(ReminderSchema) },
      },
    },
    async (request) => ({ data: await completeReminder(ctx(request), request.params.reminder_id, request.body) }),
  );

  app.post(
    '/v1/reminders/:reminder_id/dismiss',
    {
      config: { permissions: ['write_jobs'] },
      preValidation: bodyOptional,
      schema: {
        tags,
        operationId: 'dismiss_reminder',
        summary: 'Dismiss a reminder: it never emails again',
        params: IdParam('reminder_id'),
        body: DismissReminderBody,
        response: { 200: One(ReminderSchema) },
      },
    },
    async (request) => ({ data: await dismissReminder(ctx(request), request.params.reminder_id) }),
  );
}
