// The demo workspace's reminders and a remind-me follow-up, made through the same services as the
// API: a yearly contract renewal and a half-yearly maintenance check-in on customers, a follow-up on
// the walked job for the estimator, and "remind me to call" on a person with an email the day before.
import type { ServiceContext } from '#platform/context.ts';
import { todayIn } from '#platform/time-zone.ts';
import { createReminder, remindMeOnContact } from '#crm/index.ts';
import { addDays } from '#platform/time.ts';

export interface DemoReminderRecords {
  customerIds: number[];
  jobId: number | null;
  estimatorId: number;
  contactId: number | undefined;
}

/** Adds the demo reminders; dates count from today in the workspace's time zone. */
export async function demoReminders(ctx: ServiceContext, r: DemoReminderRecords): Promise<void> {
  const today = todayIn(ctx.auth.firm.timezone);
  await createReminder(ctx, {
    title: 'Sealcoating contract renews',
    description: 'Two-year maintenance contract; offer the same price if they renew before the spring.',
    reminder_type: 'contract_renewal',
    client_account_id: r.customerIds[0],
    due: addDays(today, 30),
    repeat_every: 12,
    repeat_unit: 'month',
  });
  await createReminder(ctx, {
    title: 'Walk the lot after the winter',
    description: 'Look for new cracking and pothole starts along the drive lanes.',
    reminder_type: 'maintenance_checkin',
    client_account_id: r.customerIds[1],
    due: `${addDays(today, 14)}T10:00`,
    repeat_every: 6,
    repeat_unit: 'month',
  });
  if (r.jobId !== null) {
    await createReminder(ctx, {
      title: 'Ask whether the board approved the overlay',
      reminder_type: 'follow_up',
      job_id: r.jobId,
      due: `${addDays(today, 2)}T15:00`,
      assigned_to_user_id: r.estimatorId,
    });
  }
  if (r.contactId !== undefined) {
    await remindMeOnContact(ctx, r.contactId, {
      due_date: addDays(today, 7),
      due_time: '10:00',
      email_me: 'day_before',
      note: 'Check in about the striping touch-ups.',
    });
  }
}
