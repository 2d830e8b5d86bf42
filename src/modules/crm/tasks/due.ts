// When a follow-up is due. Stored as a UTC instant (due_at); given and shown also as a local date
// and time of day in the workspace's time zone (due_date + due_time, HH:MM, default 09:00).
import { invalidField } from '#platform/errors.ts';
import { isDate, parseTimestamp } from '#platform/time.ts';
import { localToStored, storedToLocal } from '#platform/time-zone.ts';
import type { DueInput } from './schemas.ts';

export const DEFAULT_DUE_TIME = '09:00';
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function assertDueTime(time: string): void {
  if (!TIME.test(time)) throw invalidField('due_time', 'due_time must be HH:MM (24-hour)');
}

/**
 * The due instant a write sets: undefined when the body says nothing about it, null to clear.
 * `current` is the row's due_at (updates keep its local date when only due_time is sent).
 */
export function dueFromInput(
  input: DueInput,
  timeZone: string,
  current: string | null = null,
): string | null | undefined {
  const sentAt = input.due_at !== undefined;
  const sentDate = input.due_date !== undefined;
  if (sentAt && (sentDate || input.due_time !== undefined)) {
    throw invalidField('due_at', 'Send due_at or due_date (with due_time), not both');
  }
  if (input.due_time !== undefined) assertDueTime(input.due_time);
  if (sentAt) {
    if (input.due_at === null) return null;
    const parsed = parseTimestamp(input.due_at!);
    if (parsed === null) throw invalidField('due_at', 'due_at must be an ISO 8601 timestamp');
    return parsed;
  }
  if (sentDate) {
    if (input.due_date === null) {
      if (input.due_time !== undefined) throw invalidField('due_time', 'due_time needs a due_date');
      return null;
    }
    if (!isDate(input.due_date!)) throw invalidField('due_date', 'due_date must be a valid date (YYYY-MM-DD)');
    const time = input.due_time ?? (current ? storedToLocal(current, timeZone).time : DEFAULT_DUE_TIME);
    return localToStored(input.due_date!, time, timeZone);
  }
  if (input.due_time !== undefined) {
    if (!current) throw invalidField('due_time', 'due_time needs a due_date');
    return localToStored(storedToLocal(current, timeZone).date, input.due_time, timeZone);
  }
  return undefined;
}

/** due_at (UTC, Z), due_date and due_time (workspace-local) of a stored due instant. */
export function dueFields(stored: string | null, timeZone: string) {
  if (stored === null) return { due_at: null, due_date: null, due_time: null };
  const local = storedToLocal(stored, timeZone);
  return { due_at: stored.slice(0, 19) + 'Z', due_date: local.date, due_time: local.time };
}
