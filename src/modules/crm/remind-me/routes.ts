// Remind-me on a customer or a person, and the birthday reminder (document 2, "Re-bids, reminders,
// follow-ups"): each makes a company follow-up (the /v1/account-tasks object).
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { bodyOptional, IdParam, One } from '#platform/schemas.ts';
import { AccountTaskSchema } from '#crm/account-tasks/serialize.ts';
import { BirthdayReminderBody, BirthdayReminderResult, RemindMeBody } from './schemas.ts';
import { birthdayReminder, remindMeOnAccount, remindMeOnContact } from './service.ts';

const tags = ['Follow-ups'];

export function remindMeRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/client-accounts/:account_id/remind-me',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        operationId: 'remind_me_client_account',
        summary:
          'Remind me to follow up with a customer: adds a company follow-up (emailed to me when due if email_me)',
        params: IdParam('account_id'),
        body: RemindMeBody,
        response: { 201: One(AccountTaskSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await remindMeOnAccount(ctx(request), request.params.account_id, request.body) }),
  );

  app.post(
    '/v1/contacts/:contact_id/remind-me',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        operationId: 'remind_me_contact',
        summary:
          'Remind me to follow up with a person: adds a follow-up on their company (422 company_required when they have none)',
        params: IdParam('contact_id'),
        body: RemindMeBody,
        response: { 201: One(AccountTaskSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await remindMeOnContact(ctx(request), request.params.contact_id, request.body) }),
  );

  app.post(
    '/v1/contacts/:contact_id/birthday-reminder',
    {
      config: { permissions: ['write_jobs'] },
      preValidation: bodyOptional,
      schema: {
        tags,
        summary:
          "A yearly call follow-up on the person's next birthday at 9 AM: 201 created the first time, 200 with the same one after",
        params: IdParam('contact_id'),
        body: BirthdayReminderBody,
        response: { 200: BirthdayReminderResult, 201: BirthdayReminderResult },
      },
    },
    async (request, reply) => {
      const result = await birthdayReminder(ctx(request), request.params.contact_id);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );
}
