// Remind-me on a customer or a person, and a person's birthday follow-up (document 2, "Re-bids,
// reminders, follow-ups"). Both make a company follow-up through insertAccountTask, the one create
// path of /v1/account-tasks; from a person it goes on their company (422 company_required when
// they have none). The worker emails the assignee when due (reminders/due-mail.ts).
import type { Executor } from '#db/dialect.ts';
import type { Contact } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { unprocessable } from '#platform/errors.ts';
import { millisOf, now, storedAt } from '#platform/time.ts';
import { localToStored, storedToLocal } from '#platform/time-zone.ts';
import { accountTaskObjectOf, insertAccountTask } from '#crm/account-tasks/service.ts';
import { clientAccountOr404 } from '#crm/notes/parents.ts';
import { findContact } from '#crm/contacts/repo.ts';
import { displayNameOf } from '#crm/contacts/rules.ts';
import { contactNotFound } from '#crm/contacts/write.ts';
import type { RemindMeInput } from './schemas.ts';

/** The local time of a birthday follow-up. */
export const BIRTHDAY_TIME = '09:00';

const companyRequired = () =>
  unprocessable('Person has no company', {
    code: 'company_required',
    missing_fields: ['client_account_id'],
    message:
      'Follow-ups hang on a company and this person is linked to none: link them to one (PATCH /v1/contacts/{id} with client_account_id) first',
  });

async function contactOr404(db: Executor, firmId: number, id: number): Promise<Contact> {
  const contact = await findContact(db, firmId, id);
  if (!contact) throw contactNotFound();
  return contact;
}

function fields(input: RemindMeInput) {
  return {
    due_date: input.due_date,
    due_time: input.due_time,
    title: input.title,
    repeat: input.repeat,
    email_me: input.email_me,
    task_type: input.task_type,
    notes: input.note,
  };
}

export async function remindMeOnAccount(ctx: ServiceContext, accountId: number, input: RemindMeInput) {
  const id = await inTransaction(ctx.database, async (trx) => {
    const account = await clientAccountOr404(trx, ctx.auth.firm.id, accountId);
    return insertAccountTask(ctx, trx, { client_account_id: account.id, ...fields(input) });
  });
  return accountTaskObjectOf(ctx, ctx.database.db, id);
}

export async function remindMeOnContact(ctx: ServiceContext, contactId: number, input: RemindMeInput) {
  const id = await inTransaction(ctx.database, async (trx) => {
    const contact = await contactOr404(trx, ctx.auth.firm.id, contactId);
    if (contact.client_account_id === null) throw companyRequired();
    return insertAccountTask(
      ctx,
      trx,
      { client_account_id: contact.client_account_id, contact_id: contact.id, ...fields(input) },
      { titleName: displayNameOf(contact) },
    );
  });
  return accountTaskObjectOf(ctx, ctx.database.db, id);
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The birthday (YYYY-MM-DD, any year) in `year`; Feb 29 is Feb 28 in a common year. */
export function birthdayIn(birthday: string, year: number): string {
  let md = birthday.slice(5, 10);
  if (md === '02-29' && !isLeap(year)) md = '02-28';
  return `${String(year).padStart(4, '0')}-${md}`;
}

/** The next birthday at 9:00 AM local in `timeZone` after the instant `nowMs` (stored form). */
export function nextBirthday(birthday: string, nowMs: number, timeZone: string): string {
  const nowStored = storedAt(nowMs);
  const year = Number(storedToLocal(nowStored, timeZone).date.slice(0, 4));
  for (const y of [year, year + 1]) {
    const at = localToStored(birthdayIn(birthday, y), BIRTHDAY_TIME, timeZone);
    if (millisOf(at) > nowMs) return at;
  }
  return localToStored(birthdayIn(birthday, year + 2), BIRTHDAY_TIME, timeZone);
}

/**
 * The person's yearly birthday call: made the first time (created true), answered as it is after
 * (created false). A person has at most one (account_tasks.birthday_contact_id, unique). When the
 * saved birthday has changed since, the open follow-up moves to the new next birthday.
 */
export async function birthdayReminder(ctx: ServiceContext, contactId: number) {
  const firmId = ctx.auth.firm.id;
  const tz = ctx.auth.firm.timezone;
  const { id, created } = await inTransaction(
    ctx.database,
    async (trx) => {
      const contact = await contactOr404(trx, firmId, contactId);
      if (contact.birthday === null)
        throw unprocessable('Birthday not saved', {
          code: 'missing_required_fields',
          missing_fields: ['birthday'],
          message: "Save the person's birthday first (PATCH /v1/contacts/{id} with birthday)",
        });
      const due = nextBirthday(contact.birthday, ctx.deps.clock.now(), tz);
      const existing = await trx
        .selectFrom('account_tasks')
        .selectAll()
        .where('firm_id', '=', firmId)
        .where('birthday_contact_id', '=', contact.id)
        .executeTakeFirst();
      if (existing) {
        const onDay =
          existing.due_at !== null &&
          storedToLocal(existing.due_at, tz).date.slice(5) === storedToLocal(due, tz).date.slice(5);
        if (existing.status === 'open' && !onDay)
          await trx
            .updateTable('account_tasks')
            .set({ due_at: due, updated_at: now() })
            .where('id', '=', existing.id)
            .execute();
        return { id: existing.id, created: false };
      }
      if (contact.client_account_id === null) throw companyRequired();
      const local = storedToLocal(due, tz);
      const taskId = await insertAccountTask(
        ctx,
        trx,
        {
          client_account_id: contact.client_account_id,
          contact_id: contact.id,
          title: `Call ${displayNameOf(contact)} for their birthday`,
          task_type: 'call',
          due_date: local.date,
          due_time: local.time,
          repeat: 'yearly',
          email_me: 'that_day',
        },
        { birthdayContactId: contact.id },
      );
      return { id: taskId, created: true };
    },
    { uniqueRace: true },
  );
  return { created, data: await accountTaskObjectOf(ctx, ctx.database.db, id) };
}
