// What a PATCH of any follow-up (a job's or a company's) may change in the fields they share: the
// title, type, notes, due time, the person it is with (of this workspace) and who has it (an
// assignable teammate). Each resource adds its own fields and its status moves.
import type { Executor } from '#db/dialect.ts';
import type { Task } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { assignableUserOr404, contactOr404, requiredText } from '#crm/notes/parents.ts';
import { dueFromInput } from './due.ts';
import type { UpdateTaskInput } from './schemas.ts';

/** Optional text as stored: trimmed, blank is none (null); undefined when not sent. */
export const blankToNull = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim();

/** The shared columns a follow-up's PATCH sets; only what the body sends. */
export type FollowUpChanges = Partial<
  Pick<Task, 'title' | 'task_type' | 'notes' | 'due_at' | 'contact_id' | 'assigned_to_user_id'>
>;

export async function followUpChanges(
  ctx: ServiceContext,
  db: Executor,
  input: Omit<UpdateTaskInput, 'status'>,
  current: Pick<Task, 'due_at'>,
): Promise<FollowUpChanges> {
  const firmId = ctx.auth.firm.id;
  const changes: FollowUpChanges = {};
  if (input.title !== undefined) changes.title = requiredText(input.title, 'title');
  if (input.task_type !== undefined) changes.task_type = input.task_type;
  if (input.notes !== undefined) changes.notes = blankToNull(input.notes) ?? null;
  const due = dueFromInput(input, ctx.auth.firm.timezone, current.due_at);
  if (due !== undefined) changes.due_at = due;
  if (input.contact_id !== undefined)
    changes.contact_id =
      input.contact_id === null ? null : (await contactOr404(db, firmId, input.contact_id, 'contact_id')).id;
  if (input.assigned_to_user_id !== undefined)
    changes.assigned_to_user_id = (await assignableUserOr404(db, firmId, input.assigned_to_user_id)).id;
  return changes;
}
