// The properties export dataset (document 3, Export dataset rows): the workspace's sites
// (locations), archived ones included, in the row shape the spec gives for properties.
import type { Location } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';

export function propertyRow(l: Location) {
  return {
    id: l.id,
    name: l.name,
    address: l.address,
    external_ref: l.external_ref,
    client_account_id: l.client_account_id,
    // Not stored yet: coordinates arrive with geocoding, property_type with site assessments. The
    // fields are in the row now so the shape is stable.
    latitude: null,
    longitude: null,
    property_type: null,
    // The latest PCI rating that named the site (POST /v1/condition/pci with location_id); a
    // rating moves updated_at, so an incremental export sees it.
    pci: l.pci === null ? null : Number(l.pci),
    archived_at: zWire(l.archived_at),
    created_at: zWire(l.created_at),
    updated_at: zWire(l.updated_at),
  };
}

export const propertiesDataset = defineDataset({
  name: 'properties',
  description: 'Sites (locations), archived ones included with archived_at',
  changedSinceFields: ['updated_at'],
  readBatch(db, { firmId, afterId, limit, updatedAfter }) {
    let qb = db.selectFrom('locations').selectAll().where('firm_id', '=', firmId).where('id', '>', afterId);
    if (updatedAfter !== undefined) qb = qb.where(changedSince(['updated_at'], updatedAfter));
    return qb.orderBy('id').limit(limit).execute();
  },
  toRow: propertyRow,
});
