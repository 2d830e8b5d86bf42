// A plan takeoff's own routes (document 3, "Landscape takeoffs"): where its plant schedule is, its
// sheet images, and its runs (read-callouts, find-plants, group-plants, advanced-run, irrigation).
// Its start, dots and undo share the landscape routes (../routes.ts).
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import type { ApiApp } from '#platform/routes.ts';
import { IdParam, One, RecordId } from '#platform/schemas.ts';
import {
  AdvancedRunBody,
  FindPlantsBody,
  GroupPlantsBody,
  IrrigationBody,
  ReadCalloutsBody,
  RunSchema,
  ScheduleBody,
  TakeoffSchema,
} from '../schemas.ts';
import { type PlanRunKind, startPlanRun } from './runs.ts';
import { placeSchedule } from './schedule.ts';
import { sheetImage } from './sheets.ts';

const TAGS = ['Landscape'];
const READ = { permissions: ['read_measurements' as const] };
const WRITE = { permissions: ['write_measurements' as const] };

const RUNS: {
  path: string;
  kind: PlanRunKind;
  body: typeof ReadCalloutsBody | typeof FindPlantsBody | typeof GroupPlantsBody | typeof IrrigationBody;
  summary: string;
}[] = [
  {
    path: 'read-callouts',
    kind: 'read_callouts',
    body: ReadCalloutsBody,
    summary: 'Read the plan’s callouts (3 AC, AC (3), AC-3…) again as callout dots: a run (202)',
  },
  {
    path: 'find-plants',
    kind: 'find_plants',
    body: FindPlantsBody,
    summary: 'Place a dot at every instance of each plant’s schedule symbol on the sheets: a run (202)',
  },
  {
    path: 'group-plants',
    kind: 'group_plants',
    body: GroupPlantsBody,
    summary:
      'Join each plant’s dots that lie within within_px of each other into one dot counting for all: a run (202)',
  },
  {
    path: 'advanced-run',
    kind: 'advanced_run',
    body: AdvancedRunBody,
    summary: 'The whole plant takeoff again: callouts and symbol dots for every plant on the sheets, a run (202)',
  },
  {
    path: 'irrigation',
    kind: 'irrigation',
    body: IrrigationBody,
    summary:
      'Read the irrigation (heads, valves, pipes, zones) from the sheets; apply true writes it to the takeoff: a run (202)',
  },
];

export function planRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.put(
    '/v1/landscape-takeoffs/:id/schedule',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Say where a plan’s plant schedule is (a sheet and a box in sheet pixels) and read it there',
        params: IdParam(),
        body: ScheduleBody,
        response: { 200: One(TakeoffSchema) },
      },
    },
    async (request) => placeSchedule(ctx(request), request.params.id, request.body),
  );

  app.get(
    '/v1/landscape-takeoffs/:id/sheets/:page/image',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'A plan sheet as stored: a PNG at 144 dpi (the frame of the dots’ x and y)',
        params: Type.Object({ id: RecordId(), page: Type.Integer({ minimum: 1, maximum: 10_000 }) }),
        response: {
          200: {
            description: 'The sheet image',
            content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const sheet = await sheetImage(ctx(request), request.params.id, request.params.page);
      return reply
        .header('content-type', 'image/png')
        .header('content-length', String(sheet.bytes))
        .header('cache-control', 'private, max-age=3600')
        .send(sheet.body);
    },
  );

  for (const run of RUNS)
    app.post(
      `/v1/landscape-takeoffs/:id/${run.path}`,
      {
        config: WRITE,
        schema: {
          tags: TAGS,
          summary: run.summary,
          params: IdParam(),
          body: run.body,
          response: { 202: One(RunSchema) },
        },
      },
      async (request, reply) => {
        const out = await startPlanRun(ctx(request), request.params.id, run.kind, request.body);
        reply.code(202);
        return out;
      },
    );
}
