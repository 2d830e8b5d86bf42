// Lookups of the records notes, activities and follow-ups hang on, scoped to the workspace (and,
// for jobs, to what the user sees). Each answers the spec's 404 wording.
import type { Executor } from '#db/dialect.ts';
import type { ClientAccount, Job, User } from '#db/tables.ts';
import { invalidField, notFound } from '#platform/errors.ts';
import { parseTimestamp } from '#platform/time.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { clientAccountNotFound } from '#crm/client-accounts/service.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { jobNotFound } from '#crm/jobs/service.ts';
import { findActiveUser } from '#workspace/index.ts';

/** `field` names the body field that held the id (absent when the id came from the path). */
export async function visibleJobOr404(
  db: Executor,
  firmId: number,
  id: number,
  user: User,
  field?: string,
): Promise<Job> {
  const job = await findVisibleJob(db, firmId, id, user);
  if (!job)
    throw field
      ? notFound('Job not found', { field, message: `${field} ${id} is not a job you can see in this workspace` })
      : jobNotFound();
  return job;
}

export async function contactOr404(
  db: Executor,
  firmId: number,
  id: number,
  field?: string,
): Promise<{ id: number; name: string | null }> {
  const contact = await db
    .selectFrom('contacts')
    .select(['id', 'name'])
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!contact)
    throw notFound(
      'Contact not found',
      field ? { field, message: `${field} ${id} is not a contact in this workspace` } : {},
    );
  return contact;
}

export async function clientAccountOr404(
  db: Executor,
  firmId: number,
  id: number,
  field?: string,
): Promise<ClientAccount> {
  const account = await findClientAccount(db, firmId, id);
  if (!account) {
    throw field ? notFound(`${field} not found in this workspace`, { field }) : clientAccountNotFound();
  }
  return account;
}

export async function assignableUserOr404(db: Executor, firmId: number, id: number): Promise<User> {
  const user = await findActiveUser(db, firmId, id);
  if (!user)
    throw notFound('assigned_to_user_id does not match a user in this workspace', { field: 'assigned_to_user_id' });
  return user;
}

/** An ISO 8601 instant from the body, in the stored form, or the 400 naming the field. */
export function timestampField(value: string, field: string): string {
  const parsed = parseTimestamp(value);
  if (parsed === null) throw invalidField(field, `${field} must be an ISO 8601 timestamp`);
  return parsed;
}

/** Required text that must hold more than whitespace. */
export function requiredText(value: string, field: string): string {
  const text = value.trim();
  if (text === '') throw invalidField(field, `${field} cannot be blank`);
  return text;
}
