// Job follow-ups (document 2: POST /v1/tasks needs job_id and title; each call adds one).
import type { Executor } from '#db/dialect.ts';
import { transition } from '#db/transition.ts';
import { updateChanged } from '#db/update-changed.ts';
import type { Task } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import type { Page } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { assignableUserOr404, contactOr404, requiredText, visibleJobOr404 } from '#crm/notes/parents.ts';
import { findActiveUser } from '#workspace/index.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { dueFromInput } from './due.ts';
import { blankToNull, followUpChanges } from './follow-up-changes.ts';
import { findTask, listTasks, type TaskFilter } from './repo.ts';
import type { CreateTaskInput, UpdateTaskInput } from './schemas.ts';
import { taskObject } from './serialize.ts';

const taskNotFound = () => notFound('Task not found');

/** A task the user may see: one on a job they cannot see is as missing as one that is not there. */
async function visibleTask(ctx: ServiceContext, db: Executor, id: number) {
  const task = await findTask(db, ctx.auth.firm.id, id);
  if (!task || !(await findVisibleJob(db, ctx.auth.firm.id, task.job_id, ctx.auth.user))) throw taskNotFound();
  return task;
}

function dueLine(task: Pick<Task, 'due_at'>, tz: string): string {
  return task.due_at ? ` due ${storedToLocal(task.due_at, tz).date}` : '';
}

export async function createTask(ctx: ServiceContext, input: CreateTaskInput) {
  const firmId = ctx.auth.firm.id;
  const tz = ctx.auth.firm.timezone;
  const title = requiredText(input.title, 'title');
  const due = dueFromInput(input, tz) ?? null;
  const id = await inTransaction(ctx.database, async (trx) => {
    const job = await visibleJobOr404(trx, firmId, input.job_id, ctx.auth.user, 'job_id');
    if (input.contact_id != null) await contactOr404(trx, firmId, input.contact_id, 'contact_id');
    let assignee: number;
    if (input.assigned_to_user_id !== undefined)
      assignee = (await assignableUserOr404(trx, firmId, input.assigned_to_user_id)).id;
    else
      assignee = (await findActiveUser(trx, firmId, job.assigned_to_user_id))
        ? job.assigned_to_user_id
        : ctx.auth.user.id;
    const t = now();
    const row = await trx
      .insertInto('tasks')
      .values({
        firm_id: firmId,
        job_id: job.id,
        contact_id: input.contact_id ?? null,
        title,
        task_type: input.task_type ?? 'call',
        notes: blankToNull(input.notes) ?? null,
        due_at: due,
        status: 'open',
        assigned_to_user_id: assignee,
        created_by_user_id: ctx.auth.user.id,
        completed_at: null,
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await logJobActivity(trx, {
      firmId,
      jobId: job.id,
      userId: ctx.auth.user.id,
      kind: 'task_added',
      summary: `Follow-up "${title}" added${dueLine(row, tz)}`,
      data: { task_id: row.id, title, task_type: row.task_type, due_at: due, assigned_to_user_id: assignee },
    });
    return row.id;
  });
  return taskObject((await findTask(ctx.database.db, firmId, id))!, tz);
}

export async function getTask(ctx: ServiceContext, id: number) {
  return taskObject(await visibleTask(ctx, ctx.database.db, id), ctx.auth.firm.timezone);
}

export async function listTasksOf(ctx: ServiceContext, filter: TaskFilter, page: Page) {
  const { rows, total } = await listTasks(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    filter,
    page.limit,
    page.offset,
  );
  return { data: rows.map((r) => taskObject(r, ctx.auth.firm.timezone)), total };
}

export async function updateTask(ctx: ServiceContext, id: number, input: UpdateTaskInput) {
  const firmId = ctx.auth.firm.id;
  await inTransaction(ctx.database, async (trx) => {
    const task = await visibleTask(ctx, trx, id);
    const changes: Partial<Task> = await followUpChanges(ctx, trx, input, task);
    const t = now();
    await updateChanged(trx, 'tasks', task, changes, { stamp: { updated_at: t } });
    // done → open from the state read: of concurrent reopens one moves it and logs it.
    const reopening =
      input.status === 'open' &&
      task.status === 'done' &&
      (await transition(trx, 'tasks', id, { status: 'done' }, { status: 'open', completed_at: null, updated_at: t }));
    if (reopening) {
      const title = changes.title ?? task.title;
      await logJobActivity(trx, {
        firmId,
        jobId: task.job_id,
        userId: ctx.auth.user.id,
        kind: 'task_reopened',
        summary: `Follow-up "${title}" reopened`,
        data: { task_id: id, title },
      });
    }
    if (input.status === 'done') await completeTask(ctx, trx, { ...task, ...changes });
  });
  return getTask(ctx, id);
}

/**
 * Completes an open job follow-up (PATCH with status done and POST /v1/follow-ups/bulk): done,
 * completed_at, and the job's activity log says so. False (nothing changed) when already done.
 */
export async function completeTask(ctx: ServiceContext, trx: Executor, task: Task): Promise<boolean> {
  if (task.status !== 'open') return false;
  const t = now();
  // open → done once: a concurrent completion that got there first wins, and nothing is logged twice.
  if (
    !(await transition(trx, 'tasks', task.id, { status: 'open' }, { status: 'done', completed_at: t, updated_at: t }))
  )
    return false;
  await logJobActivity(trx, {
    firmId: ctx.auth.firm.id,
    jobId: task.job_id,
    userId: ctx.auth.user.id,
    kind: 'task_completed',
    summary: `Follow-up "${task.title}" completed`,
    data: { task_id: task.id, title: task.title },
  });
  return true;
}

export async function deleteTask(ctx: ServiceContext, id: number): Promise<void> {
  await inTransaction(ctx.database, async (trx) => {
    await visibleTask(ctx, trx, id);
    assertDeletionAllowed(ctx);
    await trx.deleteFrom('tasks').where('id', '=', id).execute();
  });
}
