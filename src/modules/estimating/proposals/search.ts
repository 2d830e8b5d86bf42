// Proposals in search (GET /v1/search, types=proposal): title, client name and company, and the
// document number (exactly, with or without #); only proposals on jobs the user sees.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';
import { PROPOSAL_SEARCH_FIELDS } from '#db/migrations/024_proposal_search.ts';
import { pgSearchText } from '#db/migrations/004_search.ts';
import { CANDIDATES, matchCondition, onVisibleJob, rankHits, rankOf } from '#crm/index.ts';
import type { SearchQuery } from '#src/area.ts';
import type { SearchCaller, SearchHit, SearchType } from '#src/area.ts';

const COLUMNS = [
  'proposals.id',
  'proposals.title',
  'proposals.client_name',
  'proposals.client_company',
  'proposals.doc_number',
  'proposals.status',
  'proposals.updated_at',
] as const;

interface Row {
  id: number;
  title: string;
  client_name: string | null;
  client_company: string | null;
  doc_number: number | null;
  status: string;
  updated_at: string;
}

function visible(qb: SelectQueryBuilder<DB, 'proposals', {}>, caller: SearchCaller) {
  return onVisibleJob(qb.where('proposals.firm_id', '=', caller.firmId), 'proposals.job_id', caller.firmId, caller.user)
    .select(COLUMNS)
    .limit(CANDIDATES);
}

/** Proposals whose text matches, newest first (on SQLite the FTS table drives). */
function textMatches(db: Executor, caller: SearchCaller, q: SearchQuery): Promise<Row[]> {
  const qb =
    caller.engine === 'sqlite'
      ? db
          .selectFrom(sql<{ rowid: number }>`search_proposals`.as('s'))
          .crossJoin('proposals')
          .where(sql<boolean>`proposals.id = s.rowid`)
          .where(matchCondition('sqlite', 'search_proposals', '', q))
          .orderBy(sql`s.rowid`, 'desc')
      : db
          .selectFrom('proposals')
          .where(matchCondition('postgres', '', pgSearchText(PROPOSAL_SEARCH_FIELDS, 'proposals'), q))
          .orderBy('proposals.id', 'desc');
  // Both branches select from proposals (on SQLite behind the FTS table that drives the query).
  return visible(qb as unknown as SelectQueryBuilder<DB, 'proposals', {}>, caller).execute() as Promise<Row[]>;
}

/** "1017" or "#1017": the proposal with that document number. */
function numberMatches(db: Executor, caller: SearchCaller, q: SearchQuery): Promise<Row[]> {
  if (!/^#?\d{1,9}$/.test(q.text)) return Promise.resolve([]);
  const n = Number(q.text.replace('#', ''));
  return visible(db.selectFrom('proposals').where('proposals.doc_number', '=', n), caller).execute() as Promise<Row[]>;
}

function hit(r: Row, q: SearchQuery): SearchHit {
  return {
    type: 'proposal',
    id: r.id,
    title: r.title,
    subtitle:
      [r.doc_number === null ? null : `#${r.doc_number}`, r.client_company, r.client_name]
        .filter((p): p is string => p !== null && p !== '')
        .join(' · ') || null,
    status: r.status,
    app_url: `/app/proposals/${r.id}`,
    rank:
      /^#?\d+$/.test(q.text) && String(r.doc_number) === q.text.replace('#', '')
        ? 0
        : rankOf(q, [r.title, r.client_name, r.client_company, r.doc_number]),
    updated_at: r.updated_at,
  };
}

export const proposalSearch: SearchType = {
  type: 'proposal',
  async search(db, caller, q, limit) {
    const found = await Promise.all([textMatches(db, caller, q), numberMatches(db, caller, q)]);
    return rankHits(
      found.flat().map((r) => hit(r, q)),
      limit,
    );
  },
};
