// Jobs in search: name, number (exact or prefix), company, address, contact, Property ID (the
// job's own, else its site's), work order and accounting numbers; only jobs the user sees.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';
import { JOB_SEARCH_FIELDS, LOCATION_SEARCH_FIELDS, pgSearchText } from '#db/migrations/004_search.ts';
import { nameKey } from '#platform/text.ts';
import { visibleTo } from '#crm/jobs/access.ts';
import { CANDIDATES, ftsPhrase, likeContains, matchCondition, rankOf } from '#crm/search/query.ts';
import type { SearchQuery } from '#src/area.ts';
import { rankHits } from '#crm/search/registry.ts';
import type { SearchCaller, SearchHit, SearchType } from '#src/area.ts';

interface JobHitRow {
  id: number;
  name: string;
  job_number: number;
  company: string | null;
  address: string | null;
  contact_name: string | null;
  own_property_reference: string | null;
  site_property_reference: string | null;
  external_work_order_number: string | null;
  accounting_job_number: string | null;
  status: string;
  updated_at: string;
}

function withColumns<O>(qb: SelectQueryBuilder<DB, any, O>, caller: SearchCaller) {
  return visibleTo(qb.where('jobs.firm_id', '=', caller.firmId), caller.user)
    .leftJoin('locations as lo', 'lo.id', 'jobs.location_id')
    .select([
      'jobs.id',
      'jobs.name',
      'jobs.job_number',
      'jobs.company',
      'jobs.address',
      'jobs.contact_name',
      'jobs.own_property_reference',
      'lo.property_reference as site_property_reference',
      'jobs.external_work_order_number',
      'jobs.accounting_job_number',
      'jobs.status',
      'jobs.updated_at',
    ]);
}

/** Jobs whose text matches, newest first (the index's own order). */
function textMatches(db: Executor, caller: SearchCaller, q: SearchQuery) {
  const qb =
    caller.engine === 'sqlite'
      ? // The FTS table drives (cross join keeps it first) and gives its rows newest first.
        db
          .selectFrom(sql`search_jobs`.as('s') as any)
          .crossJoin('jobs')
          .where(sql<boolean>`jobs.id = s.rowid`)
          .where(matchCondition('sqlite', 'search_jobs', '', q))
          .orderBy(sql`s.rowid`, 'desc')
      : db
          .selectFrom('jobs')
          .where(matchCondition('postgres', '', pgSearchText(JOB_SEARCH_FIELDS, 'jobs'), q))
          .orderBy('jobs.id', 'desc');
  return withColumns(qb as SelectQueryBuilder<DB, 'jobs', {}>, caller)
    .limit(CANDIDATES)
    .execute();
}

/** Jobs without a Property ID of their own whose site's Property ID matches. */
function siteReferenceMatches(db: Executor, caller: SearchCaller, q: SearchQuery) {
  const qb =
    caller.engine === 'sqlite'
      ? // The matching sites drive; their jobs come through jobs_location.
        db
          .selectFrom(sql`search_locations`.as('s') as any)
          .crossJoin('jobs')
          .where(sql<boolean>`jobs.location_id = s.rowid`)
          .where(sql<boolean>`search_locations match ${`property_reference : ${ftsPhrase(q)}`}`)
      : db.selectFrom('jobs').where(sql<boolean>`jobs.location_id in (select id from locations
        where firm_id = ${caller.firmId} and ${sql.raw(pgSearchText(LOCATION_SEARCH_FIELDS))} ilike ${likeContains(q)}
        and (' ' || property_reference) ilike ${likeContains(q)})`);
  return withColumns(
    (qb as SelectQueryBuilder<DB, 'jobs', {}>).where('jobs.own_property_reference', 'is', null),
    caller,
  )
    .orderBy('jobs.id', 'desc')
    .limit(CANDIDATES)
    .execute();
}

/** The job with this number and jobs with exactly this name, each through its own index. */
async function exactMatches(db: Executor, caller: SearchCaller, q: SearchQuery) {
  const byName = withColumns(db.selectFrom('jobs').where('jobs.name_key', '=', nameKey(q.text)), caller)
    .orderBy('jobs.id', 'desc')
    .limit(CANDIDATES)
    .execute();
  // "1234" or "#1234" (how the job number is displayed).
  const number = /^#?\d{1,9}$/.test(q.text) ? Number(q.text.replace('#', '')) : null;
  const byNumber =
    number === null ? [] : withColumns(db.selectFrom('jobs').where('jobs.job_number', '=', number), caller).execute();
  return (await Promise.all([byName, byNumber])).flat();
}

export function jobHit(r: JobHitRow, q: SearchQuery): SearchHit {
  const propertyReference = r.own_property_reference ?? r.site_property_reference;
  return {
    type: 'job',
    id: r.id,
    title: r.name,
    subtitle: [`#${r.job_number}`, r.company, r.address].filter((p) => p !== null && p !== '').join(' · '),
    status: r.status,
    app_url: `/app/jobs/${r.id}`,
    rank: rankOf(q, [
      r.name,
      r.job_number,
      r.company,
      r.address,
      r.contact_name,
      propertyReference,
      r.external_work_order_number,
      r.accounting_job_number,
    ]),
    updated_at: r.updated_at,
  };
}

export const jobSearch: SearchType = {
  type: 'job',
  async search(db, caller, q, limit) {
    const found = await Promise.all([
      textMatches(db, caller, q),
      siteReferenceMatches(db, caller, q),
      exactMatches(db, caller, q),
    ]);
    const number = /^#\d+$/.test(q.text) ? q.text.slice(1) : null;
    return rankHits(
      found.flat().map((r) => {
        const hit = jobHit(r as JobHitRow, q);
        return number !== null && String(r.job_number) === number ? { ...hit, rank: 0 as const } : hit;
      }),
      limit,
    );
  },
};
