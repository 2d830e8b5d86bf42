// Merge previews and merges of customers, contacts and sites (document 2, Search and merge).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { Body, IdParam, One, RecordId } from '#platform/schemas.ts';
import type { Choice } from './fields.ts';
import type { RecordMergeKind } from './movers.ts';
import { mergeRecords, previewMerge } from './service.ts';

const Brief = Type.Object({ id: Type.Integer(), name: Type.String(), archived: Type.Boolean() });

const FieldDiff = Type.Object({
  field: Type.String({ description: "a field name, or custom:<key> for a custom field" }),
  label: Type.String(),
  keep_value: Type.Unknown(),
  merge_away_value: Type.Unknown(),
  needs_choice: Type.Boolean({ description: 'both records have a different, non-blank value' }),
  default: Type.Union([Type.Literal('keep'), Type.Literal('drop')], {
    description: 'keep: the kept record keeps its value; drop: it takes the merged-away value (the default when its own is blank)',
  }),
  can_keep_both: Type.Boolean(),
});

const Preview = Type.Object({
  keep: Brief,
  merge_away: Brief,
  fields: Type.Array(FieldDiff),
  moves: Type.Array(Type.Object({ count: Type.Integer(), label: Type.String() })),
  blockers: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
  invoiced_job_count: Type.Optional(Type.Integer()),
});

const Result = Type.Object({ kept: Brief, merged_id: Type.Integer(), merged_name: Type.String(), message: Type.String() });

const Choices = Type.Record(Type.String(), Type.Union([Type.Literal('keep'), Type.Literal('drop'), Type.Literal('both')]), {
  maxProperties: 200,
  description: "{field: keep | drop}; keep keeps the kept record's value, drop takes the merged-away one; custom fields as custom:<key>; a contact's phone and email may be both",
});

const AREAS: { kind: RecordMergeKind; path: string; tag: string; noun: string; into: string }[] = [
  { kind: 'client_account', path: '/v1/client-accounts', tag: 'Customers', noun: 'customer', into: 'into_client_account_id' },
  { kind: 'contact', path: '/v1/contacts', tag: 'Contacts', noun: 'contact', into: 'into_contact_id' },
  { kind: 'location', path: '/v1/locations', tag: 'Sites', noun: 'site', into: 'into_location_id' },
];

export function mergeRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  for (const area of AREAS) {
    app.get(`${area.path}/:id/merge-preview`, {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: [area.tag], summary: `Preview merging this ${area.noun} into another (?into= the one kept)`,
        params: IdParam(),
        querystring: Type.Object({ into: RecordId() }),
        response: { 200: One(Preview) },
      },
    }, async (request) => {
      const { id } = request.params;
      const { into } = request.query;
      return { data: await previewMerge(ctx(request), area.kind, id, into) };
    });

    const body = area.kind === 'location'
      ? Body({ [area.into]: RecordId(), choices: Choices, move_invoiced_jobs: Type.Boolean() }, { required: [area.into] })
      : Body({ [area.into]: RecordId(), choices: Choices }, { required: [area.into] });
    app.post(`${area.path}/:id/merge`, {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: [area.tag],
        summary: area.kind === 'location'
          ? 'Merge this site into another; this one is archived and its id resolves to the kept site'
          : `Merge this ${area.noun} into another; this one is deleted`,
        params: IdParam(),
        body,
        response: { 200: One(Result) },
      },
    }, async (request) => {
      const { id } = request.params;
      const input = request.body;
      return {
        data: await mergeRecords(ctx(request), area.kind, id, {
          intoId: input[area.into] as number,
          choices: input.choices as Record<string, Choice> | undefined,
          moveInvoicedJobs: input.move_invoiced_jobs as boolean | undefined,
        }),
      };
    });
  }
}
