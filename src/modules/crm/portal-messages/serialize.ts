// The portal message object (document 2, Tag, portal message, review, share links: id, body,
// author_type, author_name, created_at; for map comments also map_comment, latitude, longitude,
// location_id, location_name). Every message carries the map fields: map_comment false and the
// rest null on a plain message (docs/api-decisions.md, Customer portal).
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { PortalMessageTable } from '#db/tables.ts';
import { Nullable } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';

export type PortalMessage = Selectable<PortalMessageTable>;

export const AUTHOR_TYPES = ['customer', 'staff'] as const;

export const PortalMessageSchema = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  body: Type.String(),
  author_type: Type.Union(
    AUTHOR_TYPES.map((a) => Type.Literal(a)),
    {
      description: "staff: posted through the API by the key's user; customer: posted on the portal page",
    },
  ),
  author_name: Type.String(),
  map_comment: Type.Boolean({ description: 'true for a comment the customer left on the map of their site' }),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  location_id: Nullable(Type.Integer()),
  location_name: Nullable(Type.String()),
  created_at: Type.String(),
});

export function portalMessageObject(m: PortalMessage) {
  return {
    id: m.id,
    job_id: m.job_id,
    body: m.body,
    author_type: m.author_type,
    author_name: m.author_name,
    map_comment: m.map_comment === 1,
    latitude: m.latitude,
    longitude: m.longitude,
    location_id: m.location_id,
    location_name: m.location_name,
    created_at: zWire(m.created_at),
  };
}
