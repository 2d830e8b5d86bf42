// Workspace and user rules that several areas enforce the same way: the switch that turns off
// deleting records (document 1: 403, some answers with deletion_locked: true) and the office-user
// rule for merges and hard deletes ("a crew login is refused").
import type { ServiceContext } from './context.ts';
import { forbidden } from './errors.ts';
import { can } from './permissions.ts';

export function deletionLocked(message = 'This workspace has turned off deleting records') {
  return forbidden('Deletion locked', { message, code: 'deletion_locked', deletion_locked: true });
}

export function officeUserRequired(message: string) {
  return forbidden('Office user required', { message, code: 'office_user_required' });
}

/** 403 Deletion locked while the workspace's switch is on. */
export function assertDeletionAllowed(ctx: ServiceContext, message?: string): void {
  if (ctx.auth.settings.deletion_locked) throw deletionLocked(message);
}

/** 403 Office user required for a user without the office-user flag (a crew login). */
export function assertOfficeUser(ctx: ServiceContext, message: string): void {
  if (!can(ctx.auth.user, 'office_user')) throw officeUserRequired(message);
}

/** Document 2: schedule, holds and change-order writes need operations on (403 Operations not enabled). */
export function assertOperationsEnabled(ctx: ServiceContext, message: string): void {
  if (!ctx.auth.settings.operations_enabled)
    throw forbidden('Operations not enabled', { code: 'operations_disabled', message });
}

/** Crews and what hangs on them need the workspace's crew scheduling (403 Crew scheduling not enabled). */
export function assertCrewScheduling(ctx: ServiceContext, message: string): void {
  if (!ctx.auth.settings.crew_scheduling_enabled)
    throw forbidden('Crew scheduling not enabled', { code: 'crew_scheduling_disabled', message });
}

/** Document 1, Schedule editor: holds, approvals and schedule writes (403 view_only otherwise). */
export function assertScheduleEditor(
  ctx: ServiceContext,
  message = "The key's user is not an owner or schedule editor",
): void {
  if (!can(ctx.auth.user, 'schedule_editor')) throw forbidden('view_only', { code: 'view_only', message });
}
