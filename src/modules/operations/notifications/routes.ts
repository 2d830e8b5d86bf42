// /v1/notifications: the key's user's in-app notifications (docs/api-decisions.md, "Operations:
// notifications"), newest first.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import { type ApiApp, CREW_WRITE, READ } from '#platform/routes.ts';
import { bodyOptional, IdParam, ListOf, Nullable, One, PageQuery } from '#platform/schemas.ts';
import { listNotifications, readNotification } from './service.ts';

const tags = ['Notifications'];
const NotificationSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: 'schedule_request (new, for schedule editors) or schedule_request_decided' }),
  title: Type.String(),
  body: Type.String(),
  schedule_request_id: Nullable(Type.Integer()),
  read_at: Nullable(Type.String()),
  created_at: Type.String(),
});
const Query = Type.Object(
  { unread: Type.Optional(Type.Boolean({ description: 'only those not read yet' })), ...PageQuery(200) },
  { additionalProperties: false },
);

export function notificationRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/notifications',
    {
      config: READ,
      schema: {
        tags,
        summary: "The key's user's in-app notifications, newest first",
        querystring: Query,
        response: { 200: ListOf(NotificationSchema) },
      },
    },
    async (request) => listNotifications(ctx(request), request.query.unread ?? false, pageOf(request.query)),
  );

  app.post(
    '/v1/notifications/:id/read',
    {
      preValidation: bodyOptional,
      config: CREW_WRITE,
      schema: {
        tags,
        summary: 'Mark one of your notifications read (a repeat answers it unchanged)',
        params: IdParam(),
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: One(NotificationSchema) },
      },
    },
    async (request) => ({ data: await readNotification(ctx(request), request.params.id) }),
  );
}
