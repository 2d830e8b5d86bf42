// Pin queries: a pin with the names and colors of its service and tag, one or a page of them.
import type { Executor } from '#db/dialect.ts';
import type { AssessmentPin, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import { newestOrSyncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

export type PinRow = AssessmentPin & {
  service_name: string | null;
  service_color: string | null;
  service_position: number | null;
  tag_name: string | null;
  tag_color: string | null;
  /** How many photos the pin shows (assessment_pin_photos). */
  photo_count: number | string | null;
};

export function pinRows(db: Executor, firmId: number) {
  return db
    .selectFrom('assessment_pins as p')
    .leftJoin('assessment_services as s', 's.id', 'p.service_type_id')
    .leftJoin('photo_tags as t', 't.id', 'p.tag_id')
    .selectAll('p')
    .select([
      's.name as service_name',
      's.color as service_color',
      's.position as service_position',
      't.name as tag_name',
      't.color as tag_color',
    ])
    .select((eb) =>
      eb
        .selectFrom('assessment_pin_photos as pp')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('pp.pin_id', '=', 'p.id')
        .as('photo_count'),
    )
    .where('p.firm_id', '=', firmId);
}

/** A pin of the workspace on a job the user sees. */
export function findPin(db: Executor, firmId: number, id: number, user: User): Promise<PinRow | undefined> {
  return onVisibleJob(pinRows(db, firmId).where('p.id', '=', id), 'p.job_id', firmId, user).executeTakeFirst();
}

/** An assessment's pins in the order they were made. */
export function pinsOfAssessment(db: Executor, firmId: number, assessmentId: number): Promise<PinRow[]> {
  return pinRows(db, firmId).where('p.assessment_id', '=', assessmentId).orderBy('p.id').execute();
}

export interface PinFilter {
  jobId?: number;
  assessmentId?: number;
  serviceTypeId?: number;
  updatedAfter?: SyncWindow;
}

/** Newest first; with updated_after oldest changed first (document 3, Site assessments and pins). */
export async function listPins(db: Executor, firmId: number, user: User, f: PinFilter, limit: number, offset: number) {
  const filtered = <QB extends { where: (...args: any[]) => QB }>(qb: QB, rest?: GroupRest): QB => {
    if (f.jobId !== undefined) qb = qb.where('p.job_id', '=', f.jobId);
    if (f.assessmentId !== undefined) qb = qb.where('p.assessment_id', '=', f.assessmentId);
    if (f.serviceTypeId !== undefined) qb = qb.where('p.service_type_id', '=', f.serviceTypeId);
    if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'p', f.updatedAfter, rest);
    return qb;
  };
  const rows = (rest?: GroupRest) => onVisibleJob(filtered(pinRows(db, firmId), rest), 'p.job_id', firmId, user);
  const page = newestOrSyncPage(rows, 'p', f.updatedAfter, { limit, offset }, 'created_at');
  const count = onVisibleJob(
    filtered(db.selectFrom('assessment_pins as p').where('p.firm_id', '=', firmId)),
    'p.job_id',
    firmId,
    user,
  )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const [data, n] = await Promise.all([page, count]);
  return { rows: data as PinRow[], total: Number(n.n) };
}
