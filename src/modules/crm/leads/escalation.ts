// Speed-to-lead (document 2, Lead escalated_at): a background task that finds new leads nobody has
// reached out to by the end of their window (respond_by, set at intake from the workspace's
// speed_to_lead_minutes), marks escalated_at and queues an email to the workspace owner, both in
// one transaction per lead. The mark is taken with a conditional update, so two workers never
// alert twice. The clock is the worker's (env.deps.clock), so tests walk the window without waiting.
import type { Env } from '#platform/context.ts';
import { storedAt } from '#platform/time.ts';
import { settingsOf } from '#platform/workspace.ts';
import type { BackgroundTask } from '#worker/index.ts';
import { queueLeadEscalation } from './mail.ts';

const BATCH = 50;

export function leadEscalationTask(env: Env): BackgroundTask {
  const { database, deps } = env;
  return {
    name: 'lead-escalation',
    async sweep(): Promise<number> {
      const at = storedAt(deps.clock.now());
      const due = await database.db
        .selectFrom('leads')
        .select('id')
        .where('status', '=', 'new')
        .where('escalated_at', 'is', null)
        .where('respond_by', '<', at)
        .orderBy('respond_by')
        .limit(BATCH)
        .execute();
      let escalated = 0;
      for (const { id } of due) {
        const done = await database.db.transaction().execute(async (trx) => {
          const claimed = await trx
            .updateTable('leads')
            .set({ escalated_at: at })
            .where('id', '=', id)
            .where('status', '=', 'new')
            .where('escalated_at', 'is', null)
            .executeTakeFirst();
          if (Number(claimed.numUpdatedRows) === 0) return false;
          const lead = await trx.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          const firm = await trx
            .selectFrom('firms')
            .selectAll()
            .where('id', '=', lead.firm_id)
            .executeTakeFirstOrThrow();
          const people = await trx
            .selectFrom('users')
            .select(['id', 'name', 'email'])
            .where('id', 'in', [lead.assigned_to_user_id, firm.owner_user_id ?? lead.assigned_to_user_id])
            .execute();
          const owner = people.find((u) => u.id === firm.owner_user_id);
          if (!owner) return true;
          await queueLeadEscalation(trx, deps.mail, {
            firm,
            lead,
            owner,
            assigneeName: people.find((u) => u.id === lead.assigned_to_user_id)?.name ?? null,
            minutes: settingsOf(firm).speed_to_lead_minutes,
          });
          return true;
        });
        if (done) escalated++;
      }
      return escalated;
    },
  };
}
