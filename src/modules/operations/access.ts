// Who may use the operations area (document 1, Schedule editor; document 2, Holds): the gates every
// operations write passes, named once so each resource asks the same question the same way.
import type { ServiceContext } from '#platform/context.ts';
import { assertCrewScheduling, assertOperationsEnabled, assertScheduleEditor } from '#platform/guards.ts';

/** Schedule writes (work orders, holds, publishing, approvals): operations on and a schedule editor. */
export function assertScheduleWrite(ctx: ServiceContext, what: string): void {
  assertOperationsEnabled(ctx, `${what} need operations turned on for the workspace`);
  assertScheduleEditor(ctx);
}

/** Crews: crew scheduling on for every call; writes need a schedule editor too. */
export function assertCrews(ctx: ServiceContext, write: boolean): void {
  assertCrewScheduling(ctx, 'Turn on crew scheduling to use crews');
  if (write) assertScheduleEditor(ctx);
}
