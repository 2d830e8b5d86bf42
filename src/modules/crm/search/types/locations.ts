// Sites in search: name, address, Property ID; archived (and merged-away) sites are left out.
import { LOCATION_SEARCH_FIELDS, pgSearchText } from '#db/migrations/004_search.ts';
import type { Location } from '#db/tables.ts';
import { addressKey } from '#platform/text.ts';
import { exactCandidates, joinParts, textCandidates } from '#crm/search/candidates.ts';
import { rankOf } from '#crm/search/query.ts';
import { rankHits } from '#crm/search/registry.ts';
import type { SearchType } from '#src/area.ts';

const COLUMNS = ['id', 'name', 'address', 'property_reference', 'updated_at'] as const;
type Row = Pick<Location, (typeof COLUMNS)[number]>;

export const locationSearch: SearchType = {
  type: 'location',
  async search(db, caller, q, limit) {
    const found = await Promise.all([
      textCandidates<'locations', Row>(
        db,
        caller,
        q,
        'locations',
        'search_locations',
        pgSearchText(LOCATION_SEARCH_FIELDS, 'locations'),
        COLUMNS,
      ),
      exactCandidates<'locations', Row>(db, caller, 'locations', COLUMNS, (qb) =>
        qb.where('locations.address_key', '=', addressKey(q.text)),
      ),
    ]);
    return rankHits(
      found.flat().map((r) => ({
        type: 'location' as const,
        id: r.id,
        title: r.name,
        subtitle: joinParts([
          r.address !== r.name ? r.address : null,
          r.property_reference ? `Property ID ${r.property_reference}` : null,
        ]),
        status: null,
        app_url: `/app/locations/${r.id}`,
        rank: rankOf(q, [r.name, r.address, r.property_reference]),
        updated_at: r.updated_at,
      })),
      limit,
    );
  },
};
