// Re-bids, cycles and history records on the wire.
import type { RebidCycle } from '#db/tables.ts';
import { centsToDollars } from '#platform/money.ts';
import { zWire } from '#platform/time.ts';
import type { HistoryRow, PairRow } from './repo.ts';
import { addYears, rebidStatus, siteKey } from './rules.ts';
import type { RebidCycleObject, RebidHistoryObject, RebidObject } from './schemas.ts';

export function cycleObject(row: RebidCycle): RebidCycleObject {
  return {
    id: row.id,
    service: row.service,
    every_years: row.every_years,
    created_at: zWire(row.created_at),
    updated_at: zWire(row.updated_at),
  };
}

export function historyObject(row: HistoryRow): RebidHistoryObject {
  return {
    id: row.id,
    location_id: row.location_id,
    cycle_id: row.cycle_id,
    service: row.service,
    done_on: row.done_on,
    amount: centsToDollars(row.amount_cents === null ? null : Number(row.amount_cents)),
    note: row.note,
    source: row.source,
    work_order_id: row.work_order_id,
    created_at: zWire(row.created_at),
  };
}

/**
 * A re-bid as it stands `today`. The office's choice counts only for the round it was made on
 * (for_done_on is the pair's latest work): newer work starts the re-bid afresh.
 */
export function rebidObject(p: PairRow, today: string): RebidObject {
  const current = p.state_status !== null && p.state_for_done_on === p.last_done_on;
  const dueOn = addYears(p.last_done_on, p.every_years);
  const choice = current ? { status: p.state_status!, snooze_until: p.snooze_until } : null;
  const status = rebidStatus(dueOn, today, choice);
  return {
    key: siteKey(p.location_id),
    cycle_id: p.cycle_id,
    location_id: p.location_id,
    location: { id: p.location_id, name: p.location_name, address: p.location_address },
    client_account_id: p.client_account_id,
    service: p.service,
    every_years: p.every_years,
    last_done_on: p.last_done_on,
    last_amount: centsToDollars(p.last_amount_cents),
    due_on: dueOn,
    status,
    snooze_until: status === 'snoozed' ? p.snooze_until : null,
    not_doing_reason: status === 'not_doing' ? p.not_doing_reason : null,
    not_doing_note: status === 'not_doing' ? p.not_doing_note : null,
    rebid_job_id: current ? p.rebid_job_id : null,
  };
}
