// Who a new lead goes to (docs/api-decisions.md, "Leads: routing"), from the workspace's
// lead_routing setting: a territory rule by ZIP, then by city; then a service rule by job type;
// then round-robin among office users (continuing after whoever the last round-robin lead went
// to). A rule naming someone who is no longer an office user is passed over. assignment_reason
// says which rule chose.
import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { can } from '#platform/permissions.ts';
import type { Settings } from '#platform/workspace.ts';
import { addressInCity, zipOf } from './rules.ts';

export type AssignmentRule = 'territory' | 'service' | 'round_robin' | 'owner';

export interface Routing {
  userId: number;
  /** The chosen user's name and email (for the alert), when routing read them. */
  user?: Pick<User, 'name' | 'email'>;
  rule: AssignmentRule;
  reason: string;
}

/** Active office users of the workspace (owners always are), by id. */
export async function officeUsers(db: Executor, firmId: number): Promise<User[]> {
  const users = await db
    .selectFrom('users')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute();
  return users.filter((u) => can(u, 'office_user'));
}

export async function routeLead(
  db: Executor,
  firm: { id: number; owner_user_id: number | null },
  settings: Settings,
  lead: { address: string | null; services: readonly string[] },
): Promise<Routing> {
  const office = await officeUsers(db, firm.id);
  const isOffice = (id: number) => office.some((u) => u.id === id);
  const routing = settings.lead_routing;
  const chosen = (r: Omit<Routing, 'user'>): Routing => ({ ...r, user: office.find((u) => u.id === r.userId) });

  const zip = zipOf(lead.address);
  if (zip) {
    const rule = routing.territory_rules.find((r) => isOffice(r.user_id) && (r.zips ?? []).includes(zip));
    if (rule) return chosen({ userId: rule.user_id, rule: 'territory', reason: `Territory rule: ZIP ${zip}` });
  }
  for (const r of routing.territory_rules) {
    if (!isOffice(r.user_id)) continue;
    const city = (r.cities ?? []).find((c) => addressInCity(lead.address, c));
    if (city) return chosen({ userId: r.user_id, rule: 'territory', reason: `Territory rule: city ${city}` });
  }
  for (const r of routing.service_rules) {
    if (!isOffice(r.user_id)) continue;
    const wanted = r.job_types.map((t) => t.toLowerCase());
    const service = lead.services.find((s) => wanted.includes(s.toLowerCase()));
    if (service) return chosen({ userId: r.user_id, rule: 'service', reason: `Service rule: ${service}` });
  }

  const pool = (routing.round_robin_user_ids ?? office.map((u) => u.id)).filter(isOffice).sort((a, b) => a - b);
  if (pool.length === 0) {
    const owner = firm.owner_user_id ?? office[0]?.id;
    if (owner === undefined) throw new Error(`workspace ${firm.id} has no owner to route leads to`);
    return { userId: owner, rule: 'owner', reason: 'Workspace owner: no office teammate to rotate among' };
  }
  const last = await db
    .selectFrom('leads')
    .select('assigned_to_user_id')
    .where('firm_id', '=', firm.id)
    .where('assignment_rule', '=', 'round_robin')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const next = (last && pool.find((id) => id > last.assigned_to_user_id)) ?? pool[0]!;
  return chosen({ userId: next, rule: 'round_robin', reason: 'Round-robin among office teammates' });
}
