import { Type } from '@sinclair/typebox';
import type { ClientAccount } from '#db/tables.ts';
import { Nullable } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';

export const ClientAccountSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  external_ref: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  address: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  custom_fields: Type.Record(Type.String(), Type.Unknown()),
  skip_automatic_follow_ups: Type.Boolean(),
  archived_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export function clientAccountObject(a: ClientAccount) {
  return {
    id: a.id,
    name: a.name,
    external_ref: a.external_ref,
    email: a.email,
    phone: a.phone,
    address: a.address,
    notes: a.notes,
    custom_fields: JSON.parse(a.custom_fields) as Record<string, unknown>,
    skip_automatic_follow_ups: a.skip_automatic_follow_ups === 1,
    archived_at: zWire(a.archived_at),
    created_at: zWire(a.created_at),
    updated_at: zWire(a.updated_at),
  };
}
