// GET /v1/sites/completed (document 2, Syncing rule 5; the shape is ours:
// docs/decisions/operations-rebids.md): sites with completed work.
import { type Static, Type } from '@sinclair/typebox';
import { ListOf, Nullable, OneOf, PageQuery } from '#platform/schemas.ts';

export const CompletedSite = Type.Object({
  id: Type.Integer({ description: 'the site (location) id' }),
  name: Type.String(),
  address: Type.String(),
  client_account_id: Nullable(Type.Integer()),
  last_completed_on: Type.String({ description: 'the latest day work was completed on the site' }),
  services: Type.Array(
    Type.Object({
      cycle_id: Type.Integer(),
      service: Type.String(),
      last_done_on: Type.String(),
      source: OneOf(['manual', 'work_order']),
      work_order_id: Nullable(Type.Integer()),
    }),
    { description: 'the latest completed work of each re-bid service, A to Z' },
  ),
  last_work_order: Nullable(
    Type.Object({ id: Type.Integer(), job_id: Type.Integer(), title: Type.String(), completed_at: Type.String() }),
  ),
  updated_at: Type.String({ description: 'when completed work was last recorded on the site' }),
});
export type CompletedSiteObject = Static<typeof CompletedSite>;
export const CompletedSiteList = ListOf(CompletedSite);

export const CompletedSitesQuery = Type.Object(
  {
    updated_after: Type.Optional(
      Type.String({ description: 'ISO 8601: sites whose completed work was recorded after it, oldest first' }),
    ),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);
export type CompletedSitesFilter = Static<typeof CompletedSitesQuery>;
