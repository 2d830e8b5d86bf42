// Loose pins (made on a job with no open assessment) join an assessment when one is started on
// the job and when it is completed (document 3, Assessment state table). Each takes the next
// number of its group there, in the order the pins were made; the assessment's updated_at stays.
import type { Executor } from '#db/dialect.ts';
import { now } from '#platform/time.ts';
import { nextPinNumber } from './label.ts';

export async function attachLoosePins(
  db: Executor,
  firmId: number,
  jobId: number,
  assessmentId: number,
): Promise<number> {
  const loose = await db
    .selectFrom('assessment_pins')
    .select(['id', 'service_type_id'])
    .where('firm_id', '=', firmId)
    .where('job_id', '=', jobId)
    .where('assessment_id', 'is', null)
    .orderBy('id')
    .execute();
  for (const pin of loose) {
    const number = await nextPinNumber(db, { jobId, assessmentId, serviceTypeId: pin.service_type_id });
    await db
      .updateTable('assessment_pins')
      .set({ assessment_id: assessmentId, number, updated_at: now() })
      .where('id', '=', pin.id)
      .execute();
  }
  return loose.length;
}
