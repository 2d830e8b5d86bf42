// What the catalog's route files share: the list filters. Reads need read_jobs; writes need
// write_jobs and an owner or estimating admin user (403 estimating_admin_required, in the services);
// DELETE archives, and PATCH {archived:false} restores.
import type { Static } from '@sinclair/typebox';
import type { ItemListQuery, ServiceListQuery } from './schemas.ts';

type ListQuery = Partial<Static<typeof ServiceListQuery> & Static<typeof ItemListQuery>>;

export const filterOf = (q: ListQuery) => ({
  q: q.q?.trim() || undefined,
  includeArchived: q.include_archived,
  category: q.category,
  estimatingMode: q.estimating_mode,
  kind: q.kind,
});
