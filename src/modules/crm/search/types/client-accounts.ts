// Customers in search: name, email, phone, address; archived customers are left out.
import { CLIENT_ACCOUNT_SEARCH_FIELDS, pgSearchText } from '#db/migrations/004_search.ts';
import type { ClientAccount } from '#db/tables.ts';
import { nameKey } from '#platform/text.ts';
import { exactCandidates, joinParts, textCandidates } from '#crm/search/candidates.ts';
import { rankOf } from '#crm/search/query.ts';
import { rankHits } from '#crm/search/registry.ts';
import type { SearchType } from '#src/area.ts';

const COLUMNS = ['id', 'name', 'email', 'phone', 'address', 'updated_at'] as const;
type Row = Pick<ClientAccount, (typeof COLUMNS)[number]>;

export const clientAccountSearch: SearchType = {
  type: 'client_account',
  async search(db, caller, q, limit) {
    const found = await Promise.all([
      textCandidates<'client_accounts', Row>(
        db,
        caller,
        q,
        'client_accounts',
        'search_client_accounts',
        pgSearchText(CLIENT_ACCOUNT_SEARCH_FIELDS, 'client_accounts'),
        COLUMNS,
      ),
      exactCandidates<'client_accounts', Row>(db, caller, 'client_accounts', COLUMNS, (qb) =>
        qb.where('client_accounts.name_key', '=', nameKey(q.text)),
      ),
    ]);
    return rankHits(
      found.flat().map((r) => ({
        type: 'client_account' as const,
        id: r.id,
        title: r.name,
        subtitle: joinParts([r.address, r.email, r.phone]),
        status: null,
        app_url: `/app/client-accounts/${r.id}`,
        rank: rankOf(q, [r.name, r.email, r.phone, r.address]),
        updated_at: r.updated_at,
      })),
      limit,
    );
  },
};
