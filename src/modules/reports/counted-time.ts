// The time the reports count: clocked out and not void, as the time-entry reads count it. One
// condition for every report query over time_entries, whichever builder it starts from.
import { sql } from 'kysely';

export const countedTime = sql<boolean>`time_entries.clock_out is not null and time_entries.voided_at is null`;
