import { Type } from '@sinclair/typebox';
import type { Location } from '#db/tables.ts';
import { Nullable } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';

export const LocationSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  external_ref: Nullable(Type.String()),
  client_account_id: Nullable(Type.Integer()),
  property_reference: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  custom_fields: Type.Record(Type.String(), Type.Unknown()),
  archived_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export function locationObject(l: Location) {
  return {
    id: l.id,
    name: l.name,
    address: l.address,
    external_ref: l.external_ref,
    client_account_id: l.client_account_id,
    property_reference: l.property_reference,
    notes: l.notes,
    custom_fields: JSON.parse(l.custom_fields) as Record<string, unknown>,
    archived_at: zWire(l.archived_at),
    created_at: zWire(l.created_at),
    updated_at: zWire(l.updated_at),
  };
}

/** The short form embedded in jobs and job details. */
export function locationSummary(l: Pick<Location, 'id' | 'name' | 'address'> | null | undefined) {
  return l ? { id: l.id, name: l.name, address: l.address } : null;
}
