// A crew on the wire.
import type { Crew } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import type { CrewObject } from './schemas.ts';

export function crewObject(row: Crew, members: { id: number; name: string }[]): CrewObject {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    active: row.active === 1,
    foreman_user_id: row.foreman_user_id,
    members,
    created_at: zWire(row.created_at),
    updated_at: zWire(row.updated_at),
  };
}
