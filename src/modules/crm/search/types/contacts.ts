// Contacts in search: name, email, phone, company, title and every phone and email the person
// has (contact_channels); archived contacts are left out.
import { sql } from 'kysely';
import { CHANNEL_SEARCH_FIELDS, CONTACT_SEARCH_FIELDS, pgSearchText } from '#db/migrations/004_search.ts';
import type { Contact } from '#db/tables.ts';
import { exactCandidates, joinParts, textCandidates } from '#crm/search/candidates.ts';
import { CANDIDATES, likeContains, rankOf } from '#crm/search/query.ts';
import { rankHits } from '#crm/search/registry.ts';
import type { SearchType } from '#src/area.ts';

const COLUMNS = ['id', 'name', 'email', 'phone', 'company', 'title', 'updated_at'] as const;
type Row = Pick<Contact, (typeof COLUMNS)[number]>;

export const contactSearch: SearchType = {
  type: 'contact',
  async search(db, caller, q, limit) {
    const found = await Promise.all([
      // On SQLite the channels are a column of search_contacts; PostgreSQL indexes them apart.
      textCandidates<'contacts', Row>(
        db,
        caller,
        q,
        'contacts',
        'search_contacts',
        pgSearchText(CONTACT_SEARCH_FIELDS, 'contacts'),
        COLUMNS,
      ),
      caller.engine === 'postgres'
        ? exactCandidates<'contacts', Row>(db, caller, 'contacts', COLUMNS, (qb) =>
            qb.where(sql<boolean>`contacts.id in (
            select contact_id from contact_channels where firm_id = ${caller.firmId}
              and ${sql.raw(pgSearchText(CHANNEL_SEARCH_FIELDS))} ilike ${likeContains(q)} order by contact_id desc limit ${CANDIDATES})`),
          )
        : [],
      exactCandidates<'contacts', Row>(db, caller, 'contacts', COLUMNS, (qb) =>
        qb.where('contacts.sort_key', '=', q.folded),
      ),
    ]);
    return rankHits(
      found.flat().map((r) => ({
        type: 'contact' as const,
        id: r.id,
        title: r.name ?? r.email ?? r.phone ?? `Contact ${r.id}`,
        subtitle: joinParts([r.title, r.company, r.email, r.phone]),
        status: null,
        app_url: `/app/contacts/${r.id}`,
        rank: rankOf(q, [r.name, r.email, r.phone, r.company, r.title]),
        updated_at: r.updated_at,
      })),
      limit,
    );
  },
};
