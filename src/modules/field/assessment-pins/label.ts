// A pin's label (document 3: "name, else service name with number, else Pin n") and the number
// it carries. Numbers count per group: the pins of one assessment (or the job's loose pins) with
// the same service, or with none ("Pin n"). A number is given once, at the end of its group, and
// kept: deleting Crack Sealing 2 does not rename Crack Sealing 3. A pin that changes group (its
// service changes, or it joins an assessment) takes the next number of its new group.
import type { Executor } from '#db/dialect.ts';

export function pinLabel(pin: { name: string | null; number: number; service_name: string | null }): string {
  if (pin.name) return pin.name;
  return pin.service_name ? `${pin.service_name} ${pin.number}` : `Pin ${pin.number}`;
}

export interface PinGroup {
  jobId: number;
  assessmentId: number | null;
  serviceTypeId: number | null;
}

/** The next number of a group (one more than its highest; 1 for an empty group). */
export async function nextPinNumber(db: Executor, g: PinGroup): Promise<number> {
  let qb = db.selectFrom('assessment_pins').select((eb) => eb.fn.max('number').as('n'));
  qb =
    g.assessmentId === null
      ? qb.where('job_id', '=', g.jobId).where('assessment_id', 'is', null)
      : qb.where('assessment_id', '=', g.assessmentId);
  qb =
    g.serviceTypeId === null
      ? qb.where('service_type_id', 'is', null)
      : qb.where('service_type_id', '=', g.serviceTypeId);
  const row = await qb.executeTakeFirstOrThrow();
  return Number(row.n ?? 0) + 1;
}
