// The estimates and estimate_lines export datasets (document 3, Export dataset rows): estimates
// are the summary rows (archived ones with archived_at); estimate lines are the line item plus
// estimate_id, job_id, area_id, area_name and estimate_updated_at, changed-since by the estimate's
// updated_at, so a sync replaces all lines of a changed estimate. Hidden lines, and lines outside
// the bid (inactive, excluded, in an inactive area), are not exported.
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import { onVisibleJob } from '#crm/index.ts';
import { zWire } from '#platform/time.ts';
import type { Calculation } from './calculation.ts';
import { estimateSummary, lineObject } from './serialize.ts';
import type { EstimateLine } from './repo.ts';

export const estimatesDataset = defineDataset({
  name: 'estimates',
  description: 'Estimate summaries without line items, archived ones included with archived_at',
  changedSinceFields: ['updated_at'],
  readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    let qb = onVisibleJob(
      db.selectFrom('estimates').selectAll().where('firm_id', '=', firmId).where('id', '>', afterId),
      'estimates.job_id',
      firmId,
      user,
    );
    if (updatedAfter !== undefined) qb = qb.where(changedSince(['updated_at'], updatedAfter));
    return qb.orderBy('id').limit(limit).execute();
  },
  toRow: estimateSummary,
});

type LineRow = EstimateLine & {
  job_id: number | null;
  area_name: string;
  estimate_updated_at: string;
  estimate_revision: number;
  calculation: string | null;
};

// Lines arrive in id order, so one estimate's lines mostly come together: parse its calculation once.
let parsed: { key: string; calc: Calculation | null } = { key: '', calc: null };
function calculationFor(row: LineRow): Calculation | null {
  const key = `${row.estimate_id}:${row.estimate_revision}`;
  if (parsed.key !== key)
    parsed = { key, calc: row.calculation === null ? null : (JSON.parse(row.calculation) as Calculation) };
  return parsed.calc;
}

export const estimateLinesDataset = defineDataset({
  name: 'estimate_lines',
  description:
    'Estimate line items with estimate_id, job_id, area_id, area_name and estimate_updated_at (hidden lines left out)',
  changedSinceFields: ['estimate_updated_at'],
  readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    let qb = db
      .selectFrom('estimate_lines as l')
      .innerJoin('estimates as e', 'e.id', 'l.estimate_id')
      .innerJoin('estimate_areas as a', 'a.id', 'l.area_id')
      .selectAll('l')
      .select([
        'e.job_id',
        'a.name as area_name',
        'e.updated_at as estimate_updated_at',
        'e.revision as estimate_revision',
        'e.calculation',
      ])
      .where('l.firm_id', '=', firmId)
      .where('l.id', '>', afterId)
      .where('l.hide_on_proposal', '=', 0)
      .where('l.active', '=', 1)
      .where('l.excluded', '=', 0)
      .where('a.active', '=', 1);
    qb = onVisibleJob(qb, 'e.job_id', firmId, user);
    if (updatedAfter !== undefined) qb = qb.where(changedSince(['e.updated_at'], updatedAfter));
    return qb.orderBy('l.id').limit(limit).execute() as Promise<LineRow[]>;
  },
  toRow(row: LineRow) {
    return {
      ...lineObject(row, calculationFor(row)),
      estimate_id: row.estimate_id,
      job_id: row.job_id,
      area_id: row.area_id,
      area_name: row.area_name,
      estimate_updated_at: zWire(row.estimate_updated_at),
    };
  },
});
