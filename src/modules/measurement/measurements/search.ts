// Measurements in search (GET /v1/search, types=measurement): by name and address, on jobs the
// user sees (or on no job), newest first.
import { sql } from 'kysely';
import type { SearchType } from '#src/area.ts';
import { likePattern } from '#platform/text.ts';
import { onVisibleJob, rankHits, rankOf } from '#crm/index.ts';

export const measurementSearch: SearchType = {
  type: 'measurement',
  async search(db, caller, q, limit) {
    const pattern = likePattern(q.folded);
    const rows = await onVisibleJob(
      db
        .selectFrom('measurements')
        .select(['id', 'name', 'address', 'area_sqft', 'updated_at'])
        .where('firm_id', '=', caller.firmId)
        .where(sql<boolean>`(lower(name) like ${pattern} escape '\\' or lower(address) like ${pattern} escape '\\')`),
      'measurements.job_id',
      caller.firmId,
      caller.user,
    )
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
    return rankHits(
      rows.map((r) => ({
        type: 'measurement' as const,
        id: r.id,
        title: r.name,
        subtitle: [r.address, `${Math.round(r.area_sqft).toLocaleString('en-US')} sq ft`].filter(Boolean).join(' · '),
        status: null,
        app_url: `/app/measurements/${r.id}`,
        rank: rankOf(q, [r.name, r.address]),
        updated_at: r.updated_at,
      })),
      limit,
    );
  },
};
