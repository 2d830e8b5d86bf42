// POST /v1/schedule/publish (docs/api-decisions.md, "Operations: publishing"): the drafts with a day
// in the range become published (crews see them; dispatched_at set) and lock their crew days. A
// draft on a crew day a hold has taken since stays a draft and is listed in held_back with the
// locks in its way (schedule/crew-days.ts: published work never shares a crew day with a hold).
import type { WorkOrder } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { invalidField } from '#platform/errors.ts';
import { addDays, now } from '#platform/time.ts';
import { assertScheduleWrite } from '../access.ts';
import { blockersOf, locksBody } from '../schedule/crew-days.ts';
import { daysOf } from './days.ts';
import { occupantsOf, workOrdersOf, writeDays } from './repo.ts';

/** The longest range one publish takes: a quarter, like the labor report's window. */
export const MAX_PUBLISH_DAYS = 93;

export async function publishSchedule(ctx: ServiceContext, range: { start_date: string; end_date: string }) {
  assertScheduleWrite(ctx, 'Publishing the schedule');
  if (range.end_date < range.start_date) throw invalidField('end_date', 'end_date is before start_date');
  if (addDays(range.start_date, MAX_PUBLISH_DAYS - 1) < range.end_date)
    throw invalidField('end_date', `Publish at most ${MAX_PUBLISH_DAYS} days at a time`);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const drafts = (await workOrdersOf(trx, firmId, ctx.auth.user)
      .where('work_orders.is_hold', '=', 0)
      .where('work_orders.published', '=', 0)
      .where('work_orders.status', '=', 'scheduled')
      .where('work_orders.id', 'in', (eb) =>
        eb
          .selectFrom('work_order_days')
          .select('work_order_id')
          .where('firm_id', '=', firmId)
          .where('date', '>=', range.start_date)
          .where('date', '<=', range.end_date),
      )
      .orderBy('work_orders.scheduled_date')
      .orderBy('work_orders.id')
      .execute()) as WorkOrder[];
    const at = now();
    const published: number[] = [];
    const heldBack: { work_order_id: number; locks: ReturnType<typeof locksBody> }[] = [];
    for (const wo of drafts) {
      const days = daysOf(wo);
      if (wo.crew_id !== null) {
        const blockers = blockersOf({ is_hold: false }, await occupantsOf(trx, firmId, wo.crew_id, days, wo.id));
        if (blockers.length > 0) {
          heldBack.push({ work_order_id: wo.id, locks: locksBody(blockers) });
          continue;
        }
      }
      await trx
        .updateTable('work_orders')
        .set({ published: 1, dispatched_at: at, updated_at: at })
        .where('id', '=', wo.id)
        .execute();
      await writeDays(trx, wo, days, wo.crew_id !== null);
      published.push(wo.id);
    }
    return {
      start_date: range.start_date,
      end_date: range.end_date,
      published: published.length,
      work_order_ids: published,
      held_back: heldBack,
    };
  });
}
