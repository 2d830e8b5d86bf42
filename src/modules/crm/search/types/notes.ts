// Notes (and logged calls, emails and meetings) in search: their content. A note on a job is
// seen by who sees the job (sees_own_jobs_only: owned or assigned jobs); notes on people and
// customers by everyone, except those on archived people and customers (left out, as search
// leaves out the archived records themselves).
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';
import { pgNoteSearchText } from '#db/migrations/004_search.ts';
import { visibleTo } from '#crm/jobs/access.ts';
import { joinParts } from '#crm/search/candidates.ts';
import { CANDIDATES, matchCondition, rankOf } from '#crm/search/query.ts';
import type { SearchQuery } from '#src/area.ts';
import { rankHits } from '#crm/search/registry.ts';
import type { SearchCaller, SearchHit, SearchType } from '#src/area.ts';

interface NoteHitRow {
  id: number;
  type: string;
  content: string;
  job_id: number | null;
  contact_id: number | null;
  client_account_id: number | null;
  updated_at: string;
  job_name: string | null;
  contact_name: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  account_name: string | null;
}

/** Longest title, in characters (code points), ellipsis included. */
export const NOTE_TITLE_LENGTH = 80;

const TYPE_LABELS: Record<string, string> = { note: 'Note', call: 'Call', email: 'Email', meeting: 'Meeting' };

/** The first non-blank line (spaces collapsed), cut to NOTE_TITLE_LENGTH with an ellipsis when longer. */
export function noteTitle(content: string): string {
  const line =
    content
      .split(/\r\n|\r|\n/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find((l) => l !== '') ?? '';
  const chars = Array.from(line);
  return chars.length > NOTE_TITLE_LENGTH
    ? chars
        .slice(0, NOTE_TITLE_LENGTH - 1)
        .join('')
        .trimEnd() + '…'
    : line;
}

/** Matching notes the caller sees, newest first (the index's own order), at most CANDIDATES. */
function textMatches(db: Executor, caller: SearchCaller, q: SearchQuery): Promise<NoteHitRow[]> {
  const base =
    caller.engine === 'sqlite'
      ? // The FTS table drives (cross join keeps it first) and gives its rows newest first.
        (db.selectFrom(sql`search_notes`.as('s') as any) as any)
          .crossJoin('notes')
          .where(sql<boolean>`notes.id = s.rowid`)
          .where(matchCondition('sqlite', 'search_notes', '', q))
          .orderBy(sql`s.rowid`, 'desc')
      : db
          .selectFrom('notes')
          .where(matchCondition('postgres', '', pgNoteSearchText('notes'), q))
          .orderBy('notes.id', 'desc');
  return (
    (base as SelectQueryBuilder<DB, 'notes', {}>)
      .where('notes.firm_id', '=', caller.firmId)
      // A job's notes: only when the caller sees the job (the jobs module's own rule).
      .where((eb) =>
        eb.or([
          eb('notes.job_id', 'is', null),
          eb.exists(
            visibleTo(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.id', '=', 'notes.job_id'), caller.user),
          ),
        ]),
      )
      .leftJoin('jobs as j', 'j.id', 'notes.job_id')
      .leftJoin('contacts as c', 'c.id', 'notes.contact_id')
      .leftJoin('client_accounts as ca', 'ca.id', 'notes.client_account_id')
      // Left joins: null for the parents a note is not on.
      .where('c.archived_at', 'is', null)
      .where('ca.archived_at', 'is', null)
      .select([
        'notes.id',
        'notes.type',
        'notes.content',
        'notes.job_id',
        'notes.contact_id',
        'notes.client_account_id',
        'notes.updated_at',
        'j.name as job_name',
        'c.name as contact_name',
        'c.email as contact_email',
        'c.phone as contact_phone',
        'ca.name as account_name',
      ])
      .limit(CANDIDATES)
      .execute() as Promise<NoteHitRow[]>
  );
}

/** What the note is on: its label and the note's page in the app. */
function parentOf(r: NoteHitRow): { label: string; url: string } {
  if (r.job_id !== null)
    return { label: `Job: ${r.job_name ?? `#${r.job_id}`}`, url: `/app/jobs/${r.job_id}/notes/${r.id}` };
  if (r.contact_id !== null) {
    const name = r.contact_name ?? r.contact_email ?? r.contact_phone ?? `Contact ${r.contact_id}`;
    return { label: `Contact: ${name}`, url: `/app/contacts/${r.contact_id}/notes/${r.id}` };
  }
  return {
    label: `Customer: ${r.account_name ?? `Customer ${r.client_account_id}`}`,
    url: `/app/client-accounts/${r.client_account_id}/notes/${r.id}`,
  };
}

export function noteHit(r: NoteHitRow, q: SearchQuery): SearchHit {
  const parent = parentOf(r);
  return {
    type: 'note',
    id: r.id,
    title: noteTitle(r.content),
    subtitle: joinParts([TYPE_LABELS[r.type] ?? r.type, parent.label]),
    status: null,
    app_url: parent.url,
    rank: rankOf(q, [r.content]),
    updated_at: r.updated_at,
  };
}

export const noteSearch: SearchType = {
  type: 'note',
  async search(db, caller, q, limit) {
    // No exact lookup: note contents have no ordinary index; an exact match is among the text matches.
    return rankHits(
      (await textMatches(db, caller, q)).map((r) => noteHit(r, q)),
      limit,
    );
  },
};
