// The follow-up sequence (document 2, Follow-up sequence) and its workspace settings
// (docs/api-decisions.md, Follow-up sequences).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { One } from '#platform/schemas.ts';
import { JobParams, JobSequenceSchema, SequenceSettingsBody, SequenceSettingsSchema } from './schemas.ts';
import { getJobSequence, startJobSequence, stopJobSequence } from './service.ts';
import { saveSequenceSettings, type SequenceSettings, sequenceSettingsOf } from './settings.ts';
import { PLACEHOLDERS } from './templates.ts';

const tags = ['Follow-up sequence'];

const settingsObject = (s: SequenceSettings) => ({ ...s, placeholders: PLACEHOLDERS.map((p) => `{{${p}}}`) });

export function followUpSequenceRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/follow-up-sequence-settings',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: "The workspace's follow-up sequence: on or off, whether a customer's reply stops it, its steps by day",
        response: { 200: One(SequenceSettingsSchema) },
      },
    },
    async (request) => ({
      data: settingsObject(await sequenceSettingsOf(env.database.db, request.auth.firm.id)),
    }),
  );

  app.put(
    '/v1/follow-up-sequence-settings',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          "Change the workspace's follow-up sequence (owner only): the fields sent change; steps replace every step",
        body: SequenceSettingsBody,
        response: { 200: One(SequenceSettingsSchema) },
      },
    },
    async (request) => ({ data: settingsObject(await saveSequenceSettings(ctx(request), request.body)) }),
  );

  app.get(
    '/v1/jobs/:id/follow-up-sequence',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: "The job's follow-up sequence: whether it runs, its open steps (or the sequence's steps when not)",
        params: JobParams,
        response: { 200: One(JobSequenceSchema) },
      },
    },
    async (request) => ({ data: await getJobSequence(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/jobs/:id/follow-up-sequence/start',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          "Start the workspace's follow-up sequence on the job (started_now false when it runs already); EMAILS CUSTOMER on the sequence's days",
        params: JobParams,
        response: {
          200: One(Type.Object({ ...JobSequenceSchema.properties, started_now: Type.Boolean() })),
        },
      },
    },
    async (request) => ({ data: await startJobSequence(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/jobs/:id/follow-up-sequence/stop',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary: "Stop the job's follow-up sequence (owner only): its open steps close and no more emails go",
        params: JobParams,
        response: {
          200: One(Type.Object({ ...JobSequenceSchema.properties, steps_closed: Type.Integer() })),
        },
      },
    },
    async (request) => ({ data: await stopJobSequence(ctx(request), request.params.id) }),
  );
}
