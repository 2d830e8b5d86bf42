// Who may file a work order's daily reports and submit its day from the crew app (docs/api-decisions.md,
// "Operations: daily logs and reports"): a key whose user is on the work order's crew, or an office
// user (who may file for a crew member by naming user_id). Anyone else is 403 not_on_crew.
import type { Executor } from '#db/dialect.ts';
import type { WorkOrder } from '#db/tables.ts';
import { findVisibleJob } from '#crm/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { forbidden, notFound } from '#platform/errors.ts';
import { officeUserRequired } from '#platform/guards.ts';
import { can } from '#platform/permissions.ts';
import { onCrew } from '../crews/repo.ts';
import { workOrderNotFound } from '../daily-logs/service.ts';
import { workOrderOfWorkspace } from '../daily-logs/repo.ts';

/** The work order and the user the filing is made as, or the refusal. */
export async function crewAppWorkOrder(
  ctx: ServiceContext,
  db: Executor,
  workOrderId: number,
  userId: number | undefined,
): Promise<{ workOrder: WorkOrder; actingUserId: number }> {
  const firmId = ctx.auth.firm.id;
  const user = ctx.auth.user;
  const workOrder = await workOrderOfWorkspace(db, firmId, workOrderId);
  if (!workOrder) throw workOrderNotFound();
  const office = can(user, 'office_user');
  if (userId !== undefined && userId !== user.id) {
    if (!office) throw officeUserRequired('Only an office user may file for someone else (user_id)');
    const named = await db
      .selectFrom('users')
      .select('id')
      .where('firm_id', '=', firmId)
      .where('id', '=', userId)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (!named)
      throw notFound('User not found', {
        message: `No current user of this workspace has id ${userId}`,
        field: 'user_id',
      });
  }
  const actingUserId = userId ?? user.id;
  if (await onCrew(db, workOrder.crew_id, user.id)) return { workOrder, actingUserId };
  if (office) {
    // An office user files for jobs they see; another job's work order is as missing.
    if (!(await findVisibleJob(db, firmId, workOrder.job_id, user))) throw workOrderNotFound();
    return { workOrder, actingUserId };
  }
  throw forbidden('Not on the crew', {
    code: 'not_on_crew',
    message: `The key's user is not on work order ${workOrder.id}'s crew; only its crew or an office user may file its reports`,
  });
}
