// The crew app's time clock (docs/api-decisions.md, "Operations: the crew app"): clock in (with or
// without a clock-out) on a work order, a job or shop time, and clock out of an open entry.
import { contextFor, type Env } from '#platform/context.ts';
import { bodyOptional } from '#platform/schemas.ts';
import { type ApiApp, CREW_WRITE } from '#platform/routes.ts';
import { ClockOutBody, CreateTimeEntryBody, OneLaborRow, TimeEntryParams } from '../time-entries/schemas.ts';
import { clockOut, createTimeEntry } from '../time-entries/service.ts';

const tags = ['Crew app'];

export function crewTimeRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/crew/time-entries',
    {
      config: CREW_WRITE,
      schema: {
        tags,
        summary:
          'Record time: on a work order (the worker on its crew), a job, or shop time (neither); an office user may name user_id',
        body: CreateTimeEntryBody,
        response: { 201: OneLaborRow },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createTimeEntry(ctx(request), request.body) }),
  );

  app.post(
    '/v1/crew/time-entries/:id/clock-out',
    {
      config: CREW_WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        operationId: 'clock_out_crew_time_entry',
        summary: 'Clock out of an open time entry (now unless clock_out is sent)',
        params: TimeEntryParams,
        body: ClockOutBody,
        response: { 200: OneLaborRow },
      },
    },
    async (request) => ({ data: await clockOut(ctx(request), request.params.id, request.body) }),
  );
}
