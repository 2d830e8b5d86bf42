// Who hears about a customer's action on a job (customer-alerts/alert.ts): the job's assignee, and
// when the assignee cannot be mailed (removed, or no usable address) the workspace's owners instead,
// so an action never goes unheard because one teammate left. Never the customer: only users.
import type { Executor } from '#db/dialect.ts';
import { looksLikeEmail } from '#platform/email-phone.ts';

export interface AlertRecipient {
  name: string;
  email: string;
}

const reachable = (u: { email: string; removed_at: string | null }) =>
  u.removed_at === null && looksLikeEmail(u.email.trim());

/** The job's assignee if they can be mailed, else the workspace's owners who can; one message per address. */
export async function alertRecipients(
  db: Executor,
  firmId: number,
  assigneeUserId: number | null,
): Promise<AlertRecipient[]> {
  if (assigneeUserId !== null) {
    const assignee = await db
      .selectFrom('users')
      .select(['name', 'email', 'removed_at'])
      .where('id', '=', assigneeUserId)
      .where('firm_id', '=', firmId)
      .executeTakeFirst();
    if (assignee && reachable(assignee)) return [{ name: assignee.name, email: assignee.email.trim() }];
  }
  const owners = await db
    .selectFrom('users')
    .select(['name', 'email', 'removed_at'])
    .where('firm_id', '=', firmId)
    .where('role', '=', 'owner')
    .orderBy('id')
    .execute();
  const seen = new Set<string>();
  const out: AlertRecipient[] = [];
  for (const owner of owners.filter(reachable)) {
    const email = owner.email.trim();
    if (seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push({ name: owner.name, email });
  }
  return out;
}
