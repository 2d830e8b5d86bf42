// /v1/time-entries and GET /v1/jobs/{id}/labor (docs/api-decisions.md, "Operations: time and job
// costs"). The crew app's clock in and out are crew-app/time-routes.ts.
import { contextFor, type Env } from '#platform/context.ts';
import { bodyOptional } from '#platform/schemas.ts';
import { type ApiApp, READ, WRITE } from '#platform/routes.ts';
import { JobLabor, LaborList, OneLaborRow, TimeEntryListQuery, TimeEntryParams, VoidBody } from './schemas.ts';
import { jobLabor, listTimeEntries, voidTimeEntry } from './service.ts';

const tags = ['Time entries'];

export function timeEntryRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/time-entries',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'List time entries with hours split into regular, overtime and doubletime (pay only for users who may see pay)',
        querystring: TimeEntryListQuery,
        response: { 200: LaborList },
      },
    },
    async (request) => listTimeEntries(ctx(request), request.query),
  );

  app.post(
    '/v1/time-entries/:id/void',
    {
      config: WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        summary: 'Void a time entry (office user): it stays listed but counts for no hours, pay or job cost',
        params: TimeEntryParams,
        body: VoidBody,
        response: { 200: OneLaborRow },
      },
    },
    async (request) => ({ data: await voidTimeEntry(ctx(request), request.params.id, request.body) }),
  );

  app.get(
    '/v1/jobs/:id/labor',
    {
      config: READ,
      schema: {
        tags,
        summary: "The job's time entries, oldest first, with hours split by the overtime rule",
        params: TimeEntryParams,
        response: { 200: JobLabor },
      },
    },
    async (request) => ({ data: await jobLabor(ctx(request), request.params.id) }),
  );
}
