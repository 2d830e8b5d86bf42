// Merge previews and merges of customers, contacts and sites (document 2, Search and merge).
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { IdParam, One } from '#platform/schemas.ts';
import type { RecordMergeKind } from '#src/area.ts';
import {
  MergeClientAccountBody,
  MergeContactBody,
  mergeInputOf,
  MergeLocationBody,
  MergePreviewQuery,
  MergePreviewSchema,
  MergeResultSchema,
} from './schemas.ts';
import { mergeRecords, previewMerge } from './service.ts';

const AREAS: {
  kind: RecordMergeKind;
  path: string;
  tag: string;
  noun: string;
  body: typeof MergeClientAccountBody | typeof MergeContactBody | typeof MergeLocationBody;
}[] = [
  {
    kind: 'client_account',
    path: '/v1/client-accounts',
    tag: 'Customers',
    noun: 'customer',
    body: MergeClientAccountBody,
  },
  { kind: 'contact', path: '/v1/contacts', tag: 'Contacts', noun: 'contact', body: MergeContactBody },
  { kind: 'location', path: '/v1/locations', tag: 'Sites', noun: 'site', body: MergeLocationBody },
];

export function mergeRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  for (const area of AREAS) {
    app.get(
      `${area.path}/:id/merge-preview`,
      {
        config: { permissions: ['read_jobs'] },
        schema: {
          tags: [area.tag],
          summary: `Preview merging this ${area.noun} into another (?into= the one kept)`,
          params: IdParam(),
          querystring: MergePreviewQuery,
          response: { 200: One(MergePreviewSchema) },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { into } = request.query;
        return { data: await previewMerge(ctx(request), area.kind, id, into) };
      },
    );

    app.post(
      `${area.path}/:id/merge`,
      {
        config: { permissions: ['write_jobs', 'delete_records'] },
        schema: {
          tags: [area.tag],
          summary:
            area.kind === 'location'
              ? 'Merge this site into another; this one is archived and its id resolves to the kept site'
              : `Merge this ${area.noun} into another; this one is deleted`,
          params: IdParam(),
          body: area.body,
          response: { 200: One(MergeResultSchema) },
        },
      },
      async (request) => {
        const { id } = request.params;
        return { data: await mergeRecords(ctx(request), area.kind, id, mergeInputOf(request.body)) };
      },
    );
  }
}
