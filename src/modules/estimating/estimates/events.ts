// Estimate business events (document 1, Events: estimate_created, estimate_issued,
// estimate_revised, estimate_approved, estimate_declined), recorded in the write's transaction,
// and the `estimate` part of their webhook bodies: the estimate as GET /v1/estimates/{id} shows
// it, or the issued version as with ?version=N.
import type { Executor } from '#db/dialect.ts';
import type { Estimate } from '#db/tables.ts';
import type { PayloadPart } from '#events/payload-parts.ts';
import { recordBusinessEvent } from '#events/record.ts';
import { loadTree } from './repo.ts';
import { estimateObject } from './serialize.ts';

const lifecycle = (e: Estimate) => ({
  estimate_id: e.id,
  status: e.status,
  is_change_order: e.is_change_order === 1,
  parent_estimate_id: e.parent_estimate_id,
});

export async function recordEstimateCreated(trx: Executor, e: Estimate): Promise<void> {
  await recordBusinessEvent(trx, {
    firmId: e.firm_id,
    type: 'estimate_created',
    entity: { type: 'estimate', id: e.id },
    jobId: e.job_id,
    data: lifecycle(e),
  });
}

/** Version 1 is estimate_issued; every later version estimate_revised. The entity is the version. */
export async function recordEstimateIssued(
  trx: Executor,
  e: Estimate,
  version: number,
  snapshotId: number,
  userId: number | null,
): Promise<void> {
  await recordBusinessEvent(trx, {
    firmId: e.firm_id,
    type: version === 1 ? 'estimate_issued' : 'estimate_revised',
    entity: { type: 'estimate_version', id: snapshotId },
    jobId: e.job_id,
    data: { estimate_id: e.id, version, issued_by_user_id: userId },
  });
}

export async function recordEstimateApproved(trx: Executor, e: Estimate): Promise<void> {
  await recordBusinessEvent(trx, {
    firmId: e.firm_id,
    type: 'estimate_approved',
    entity: { type: 'estimate', id: e.id },
    jobId: e.job_id,
    data: { ...lifecycle(e), award_snapshot_id: e.award_snapshot_id },
  });
}

export async function recordEstimateDeclined(trx: Executor, e: Estimate, fromStatus: string): Promise<void> {
  await recordBusinessEvent(trx, {
    firmId: e.firm_id,
    type: 'estimate_declined',
    entity: { type: 'estimate', id: e.id },
    jobId: e.job_id,
    data: { ...lifecycle(e), from_status: fromStatus },
  });
}

/** The `estimate` part of estimate_* deliveries: the frozen version for issued and revised events, else the estimate now. */
export const estimatePayloadPart: PayloadPart = {
  field: 'estimate',
  appliesTo: (event) => event.event_type.startsWith('estimate_'),
  async build(db, event) {
    const data = JSON.parse(event.data) as { estimate_id: number; version?: number };
    if (data.version !== undefined) {
      const snap = await db
        .selectFrom('estimate_snapshots')
        .select('document')
        .where('firm_id', '=', event.firm_id)
        .where('estimate_id', '=', data.estimate_id)
        .where('kind', '=', 'version')
        .where('version', '=', data.version)
        .executeTakeFirst();
      return snap ? JSON.parse(snap.document) : null;
    }
    const e = await db
      .selectFrom('estimates')
      .selectAll()
      .where('firm_id', '=', event.firm_id)
      .where('id', '=', data.estimate_id)
      .executeTakeFirst();
    return e ? estimateObject(await loadTree(db, e)) : null;
  },
};
