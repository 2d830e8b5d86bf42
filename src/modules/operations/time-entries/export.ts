// The time_entries export dataset (document 3: the shape of GET /v1/jobs/{id}/labor; changed since
// clock_in, clock_out, approved_at or voided_at, and updated_at too, so an entry entered after the
// fact, whose clock_in is older than the client's watermark, is not missed). Entries on jobs the
// user sees and shop time; pay only for users who may see pay.
import { settingsOf } from '#platform/workspace.ts';
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import type { LaborRowObject } from './schemas.ts';
import { laborRowsOf } from './service.ts';
import { timeEntriesOf } from './repo.ts';

export const timeEntriesDataset = defineDataset({
  name: 'time_entries',
  description: 'Time entries with regular, overtime and doubletime hours (pay for users who may see pay)',
  changedSinceFields: ['clock_in', 'clock_out', 'approved_at', 'voided_at', 'updated_at'],
  async readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    let qb = timeEntriesOf(db, firmId, user).where('time_entries.id', '>', afterId);
    if (updatedAfter !== undefined)
      qb = qb.where(
        changedSince(
          [
            'time_entries.clock_in',
            'time_entries.clock_out',
            'time_entries.approved_at',
            'time_entries.voided_at',
            'time_entries.updated_at',
          ],
          updatedAfter,
        ),
      );
    const rows = await qb.orderBy('time_entries.id').limit(limit).execute();
    if (rows.length === 0) return [];
    const firm = await db
      .selectFrom('firms')
      .select(['timezone', 'settings'])
      .where('id', '=', firmId)
      .executeTakeFirstOrThrow();
    return laborRowsOf(db, firmId, user, { timeZone: firm.timezone, weekStart: settingsOf(firm).week_start }, rows);
  },
  toRow: (row: LaborRowObject) => row,
});
