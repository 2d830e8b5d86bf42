// Activities logged by other systems (document 2, Required fields of create calls: POST
// /v1/activities, idempotent on source plus external_id; a repeat is 200 created false and updates).
import type { Executor } from '#db/dialect.ts';
import type { Activity } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { badRequest, invalidField, notFound } from '#platform/errors.ts';
import type { Page } from '#platform/pagination.ts';
import { truncate } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { findJobByRef } from '#crm/jobs/repo.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { findClientAccountByRef } from '#crm/client-accounts/repo.ts';
import { leadInteractionLogged } from '#crm/leads/implicit.ts';
import { findLeadRow } from '#crm/leads/repo.ts';
import { clientAccountOr404, contactOr404, timestampField, visibleJobOr404 } from '#crm/notes/parents.ts';
import { findActivity, findActivityByRef, listActivities, type ActivityFilter } from './repo.ts';
import type { ActivityInput, AssociationsInput } from './schemas.ts';
import { activityObject } from './serialize.ts';

type Links = Partial<Pick<Activity, 'job_id' | 'client_account_id' | 'contact_id' | 'lead_id'>>;

export const DEFAULT_SOURCE = 'api';
const activityNotFound = () => notFound('Activity not found');

const textOrNull = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim();
const hasText = (v: string | null | undefined) => typeof v === 'string' && v.trim() !== '';

/**
 * Resolves the sent associations to ids of this workspace. A key sent as null clears that link;
 * a key not sent leaves it alone. An id or ref naming nothing is 404 naming the field.
 */
async function resolveAssociations(ctx: ServiceContext, trx: Executor, a: AssociationsInput): Promise<Links> {
  const firmId = ctx.auth.firm.id;
  const user = ctx.auth.user;
  const links: Links = {};

  if (a.job_id !== undefined)
    links.job_id =
      a.job_id === null ? null : (await visibleJobOr404(trx, firmId, a.job_id, user, 'associations.job_id')).id;
  if (a.job_external_ref !== undefined && a.job_external_ref !== null) {
    const field = 'associations.job_external_ref';
    const byRef = await findJobByRef(trx, firmId, a.job_external_ref);
    if (!byRef || !(await findVisibleJob(trx, firmId, byRef.id, user))) {
      throw notFound('Job not found', {
        field,
        message: `No job you can see has external_ref "${a.job_external_ref}"`,
      });
    }
    if (links.job_id != null && links.job_id !== byRef.id) {
      throw invalidField(field, 'associations.job_id and associations.job_external_ref name different jobs');
    }
    links.job_id = byRef.id;
  } else if (a.job_external_ref === null && a.job_id === undefined) links.job_id = null;

  if (a.client_account_id !== undefined) {
    links.client_account_id =
      a.client_account_id === null
        ? null
        : (await clientAccountOr404(trx, firmId, a.client_account_id, 'associations.client_account_id')).id;
  }
  if (a.client_account_external_ref !== undefined && a.client_account_external_ref !== null) {
    const field = 'associations.client_account_external_ref';
    const byRef = await findClientAccountByRef(trx, firmId, a.client_account_external_ref);
    if (!byRef) throw notFound(`${field} not found in this workspace`, { field });
    if (links.client_account_id != null && links.client_account_id !== byRef.id) {
      throw invalidField(
        field,
        'associations.client_account_id and associations.client_account_external_ref name different customers',
      );
    }
    links.client_account_id = byRef.id;
  } else if (a.client_account_external_ref === null && a.client_account_id === undefined)
    links.client_account_id = null;

  if (a.contact_id !== undefined) {
    links.contact_id =
      a.contact_id === null ? null : (await contactOr404(trx, firmId, a.contact_id, 'associations.contact_id')).id;
  }
  if (a.lead_id !== undefined) {
    if (a.lead_id !== null && !(await findLeadRow(trx, firmId, a.lead_id, user)))
      throw notFound('Lead not found', {
        field: 'associations.lead_id',
        message: `associations.lead_id ${a.lead_id} is not a lead in this workspace`,
      });
    links.lead_id = a.lead_id;
  }
  return links;
}

/** The required-field rules of the create call, checked on the record as it will be saved. */
function assertComplete(
  a: Pick<
    Activity,
    'type' | 'subject' | 'body' | 'outcome' | 'job_id' | 'client_account_id' | 'contact_id' | 'lead_id'
  >,
): void {
  if (!hasText(a.body) && !hasText(a.subject) && !(a.type === 'call' && hasText(a.outcome))) {
    throw badRequest('body is required', {
      code: 'invalid_request',
      field: 'body',
      message: 'Send body or subject (a call may send only outcome)',
    });
  }
  if (a.job_id === null && a.client_account_id === null && a.contact_id === null && a.lead_id === null) {
    throw badRequest('associations is required', {
      code: 'invalid_request',
      field: 'associations',
      message:
        'Send one of associations.job_id, job_external_ref, client_account_id, client_account_external_ref, contact_id or lead_id',
    });
  }
}

function summaryOf(a: Pick<Activity, 'type' | 'source' | 'subject' | 'body' | 'outcome'>): string {
  const what = a.subject ?? a.body ?? a.outcome ?? '';
  const line = truncate(what.replace(/\s+/g, ' '), 80) + (what.length > 80 ? '…' : '');
  const type = a.type.charAt(0).toUpperCase() + a.type.slice(1);
  return `${type} logged from ${a.source}${line ? `: ${line}` : ''}`;
}

export async function upsertActivity(
  ctx: ServiceContext,
  input: ActivityInput,
): Promise<{ activity: ReturnType<typeof activityObject>; created: boolean }> {
  const firmId = ctx.auth.firm.id;
  const source = input.source?.trim() || DEFAULT_SOURCE;
  const externalId = input.external_id?.trim() || null;
  const occurredAt = input.occurred_at !== undefined ? timestampField(input.occurred_at, 'occurred_at') : undefined;
  const fields: Partial<Activity> = { type: input.type };
  for (const f of ['subject', 'body', 'outcome'] as const) {
    const v = textOrNull(input[f]);
    if (v !== undefined) fields[f] = v;
  }
  if (input.direction !== undefined) fields.direction = input.direction;
  if (input.duration_seconds !== undefined) fields.duration_seconds = input.duration_seconds;
  if (occurredAt !== undefined) fields.occurred_at = occurredAt;

  const { id, created } = await inTransaction(
    ctx.database,
    async (trx) => {
      const links = await resolveAssociations(ctx, trx, input.associations ?? {});
      const existing = externalId !== null ? await findActivityByRef(trx, firmId, source, externalId) : undefined;
      const t = now();
      if (!existing) {
        const row = {
          firm_id: firmId,
          type: input.type,
          subject: null,
          body: null,
          outcome: null,
          direction: null,
          duration_seconds: null,
          source,
          external_id: externalId,
          job_id: null,
          client_account_id: null,
          contact_id: null,
          lead_id: null,
          user_id: ctx.auth.user.id,
          occurred_at: t,
          created_at: t,
          updated_at: t,
          ...fields,
          ...links,
        };
        assertComplete(row);
        const inserted = await trx.insertInto('activities').values(row).returning('id').executeTakeFirstOrThrow();
        // A call, email or meeting with a new lead (named, or through its person, job or company): contacted.
        await leadInteractionLogged(
          trx,
          ctx.auth,
          { leadId: row.lead_id, contactId: row.contact_id, jobId: row.job_id, clientAccountId: row.client_account_id },
          row.type,
        );
        if (row.job_id !== null) {
          await logJobActivity(trx, {
            firmId,
            jobId: row.job_id,
            userId: ctx.auth.user.id,
            kind: 'activity_logged',
            summary: summaryOf(row),
            data: { activity_id: inserted.id, type: row.type, source, external_id: externalId },
          });
        }
        return { id: inserted.id, created: true };
      }
      const changes: Partial<Activity> = { ...fields, ...links };
      const merged = { ...existing, ...changes };
      assertComplete(merged);
      const changed = (Object.keys(changes) as (keyof Activity)[]).filter((k) => changes[k] !== existing[k]);
      if (changed.length > 0) {
        await trx
          .updateTable('activities')
          .set({ ...changes, updated_at: t })
          .where('id', '=', existing.id)
          .execute();
        if (merged.job_id !== null && merged.job_id !== existing.job_id) {
          await logJobActivity(trx, {
            firmId,
            jobId: merged.job_id,
            userId: ctx.auth.user.id,
            kind: 'activity_logged',
            summary: summaryOf(merged),
            data: { activity_id: existing.id, type: merged.type, source, external_id: externalId },
          });
        }
      }
      return { id: existing.id, created: false };
      // An upsert by (source, external_id) without the workspace lock: a concurrent first call may insert
      // the same id between the look-up and the insert; run again, the look-up finds its row.
    },
    { uniqueRace: true },
  );
  return { activity: activityObject((await findActivity(ctx.database.db, firmId, id))!), created };
}

/** An activity the user may see: one on a job they cannot see is as missing as one that is not there. */
export async function getActivity(ctx: ServiceContext, id: number) {
  const db = ctx.database.db;
  const a = await findActivity(db, ctx.auth.firm.id, id);
  if (!a) throw activityNotFound();
  if (a.job_id !== null && !(await findVisibleJob(db, ctx.auth.firm.id, a.job_id, ctx.auth.user)))
    throw activityNotFound();
  return activityObject(a);
}

export async function listActivitiesOf(ctx: ServiceContext, filter: ActivityFilter, page: Page) {
  const { rows, total } = await listActivities(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    filter,
    page.limit,
    page.offset,
  );
  return { data: rows.map(activityObject), total };
}
