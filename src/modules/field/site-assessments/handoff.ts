// The handoff snapshot (document 3, Assessment: "handoff snapshot saved" on complete). It holds
// what the office prices from, frozen at completion: who completed it and when, the pin count,
// the severity totals and the services roll-up. It is read as `handoff` in the assessment detail
// (null before the first completion) and kept through a reopen until the next completion
// replaces it, so the office can see what was handed over even while the field adds pins.
import type { User } from '#db/tables.ts';
import type { PinRow } from '#field/assessment-pins/repo.ts';
import { zWire } from '#platform/time.ts';
import { rollUp } from './rollup.ts';
import type { Handoff } from './schemas.ts';

export function handoffOf(pins: readonly PinRow[], completedAt: string, by: Pick<User, 'id' | 'name'>): Handoff {
  const { services, severity_totals } = rollUp(pins);
  return {
    completed_at: zWire(completedAt),
    completed_by: { id: by.id, name: by.name },
    pin_count: pins.length,
    severity_totals,
    services,
  };
}
