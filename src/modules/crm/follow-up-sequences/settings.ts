// The workspace's follow-up sequence and its settings (docs/api-decisions.md, Follow-up
// sequences): one sequence per workspace, kept in follow_up_sequence_settings, read by GET and
// replaced field by field by PUT /v1/follow-up-sequence-settings (owner only: like custom-field
// setup, it changes what every salesperson's customers receive). Steps are ordered by day; an email
// step has a subject and body template, a task step the title of the job follow-up it makes for
// the job's salesperson. Until saved, a workspace has the default: off, stopping on a customer's
// reply, no steps.
import type { Executor } from '#db/dialect.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { badRequest, forbidden } from '#platform/errors.ts';
import { now, zWire } from '#platform/time.ts';
import type { SequenceSettingsInput, SequenceStepInput } from './schemas.ts';
import { unknownPlaceholders } from './templates.ts';

export interface SequenceStep {
  day: number;
  kind: 'email' | 'task';
  subject: string | null;
  body: string | null;
  title: string | null;
}

export interface SequenceSettings {
  enabled: boolean;
  stop_on_customer_reply: boolean;
  steps: SequenceStep[];
  updated_at: string | null;
}

export const DEFAULT_SEQUENCE: SequenceSettings = {
  enabled: false,
  stop_on_customer_reply: true,
  steps: [],
  updated_at: null,
};

export async function sequenceSettingsOf(db: Executor, firmId: number): Promise<SequenceSettings> {
  const row = await db
    .selectFrom('follow_up_sequence_settings')
    .selectAll()
    .where('firm_id', '=', firmId)
    .executeTakeFirst();
  if (!row) return DEFAULT_SEQUENCE;
  return {
    enabled: row.enabled === 1,
    stop_on_customer_reply: row.stop_on_customer_reply === 1,
    steps: JSON.parse(row.steps) as SequenceStep[],
    updated_at: zWire(row.updated_at),
  };
}

/** Whether the workspace has a sequence on: enabled with at least one step. */
export const sequenceOn = (s: SequenceSettings) => s.enabled && s.steps.length > 0;

/** Following the spec's wording for stopping a sequence (document 2, Errors: 403). */
export function requireOwner(ctx: ServiceContext, what: string): void {
  if (ctx.auth.user.role !== 'owner')
    throw forbidden('key creator is not an owner', {
      code: 'not_owner',
      message: `${what} needs a key created by a workspace owner`,
    });
}

const trimmed = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : v.trim());

function cleanStep(step: SequenceStepInput, index: number): SequenceStep {
  const field = (name: string) => `steps[${index}].${name}`;
  const where = `Step ${index + 1} (day ${step.day})`;
  const check = (name: string, value: string | null) => {
    const unknown = value === null ? [] : unknownPlaceholders(value);
    if (unknown.length > 0)
      throw badRequest(`Unknown placeholders: ${unknown.map((u) => `{{${u}}}`).join(', ')}`, {
        field: field(name),
        message: `${where}: ${name} uses placeholders the sequence does not fill`,
      });
  };
  if (step.kind === 'email') {
    const subject = trimmed(step.subject);
    const body = trimmed(step.body);
    if (subject === null) throw badRequest(`${where}: an email step needs a subject`, { field: field('subject') });
    if (body === null) throw badRequest(`${where}: an email step needs a body`, { field: field('body') });
    if (step.title !== undefined && step.title !== null)
      throw badRequest(`${where}: title is for task steps`, { field: field('title') });
    check('subject', subject);
    check('body', body);
    return { day: step.day, kind: 'email', subject, body, title: null };
  }
  const title = trimmed(step.title);
  if (title === null) throw badRequest(`${where}: a task step needs a title`, { field: field('title') });
  for (const name of ['subject', 'body'] as const)
    if (step[name] !== undefined && step[name] !== null)
      throw badRequest(`${where}: ${name} is for email steps`, { field: field(name) });
  check('title', title);
  return { day: step.day, kind: 'task', subject: null, body: null, title };
}

/** PUT: changes the fields sent; steps, when sent, replace the sequence's steps (ordered by day). */
export async function saveSequenceSettings(
  ctx: ServiceContext,
  input: SequenceSettingsInput,
): Promise<SequenceSettings> {
  requireOwner(ctx, 'Changing the follow-up sequence');
  const firmId = ctx.auth.firm.id;
  const steps = input.steps?.map(cleanStep);
  steps?.sort((a, b) => a.day - b.day);
  await inTransaction(ctx.database, async (trx) => {
    const current = await sequenceSettingsOf(trx, firmId);
    const next = {
      enabled: input.enabled ?? current.enabled,
      stop_on_customer_reply: input.stop_on_customer_reply ?? current.stop_on_customer_reply,
      steps: steps ?? current.steps,
    };
    if (next.enabled && next.steps.length === 0)
      throw badRequest('Add at least one step to turn the sequence on', { field: 'steps' });
    const row = {
      enabled: next.enabled ? 1 : 0,
      stop_on_customer_reply: next.stop_on_customer_reply ? 1 : 0,
      steps: JSON.stringify(next.steps),
      updated_by_user_id: ctx.auth.user.id,
      updated_at: now(),
    } as const;
    await trx
      .insertInto('follow_up_sequence_settings')
      .values({ firm_id: firmId, ...row })
      .onConflict((oc) => oc.column('firm_id').doUpdateSet(row))
      .execute();
  });
  return sequenceSettingsOf(ctx.database.db, firmId);
}
