// Re-bid cycles for workspaces made before re-bids (docs/decisions/operations-rebids.md): every
// workspace gets the starter cycles new ones get when made (operations/rebids/rules.ts,
// STARTER_CYCLES). Written here as they stood when this migration was made, with its own insert: a
// migration is a fixed step and never calls live code. A workspace that already has cycles keeps
// them as they are.
import type { Kysely } from 'kysely';

const STARTER: readonly [string, number][] = [
  ['Sealcoating', 2],
  ['Striping', 1],
  ['Crack sealing', 1],
  ['Asphalt repair', 3],
];

export async function up(db: Kysely<any>): Promise<void> {
  // The stored-timestamp form (platform/time.ts): UTC to the microsecond, no suffix.
  const at = `${new Date().toISOString().slice(0, 23)}000`;
  const withCycles = new Set(
    (await db.selectFrom('rebid_cycles').select('firm_id').distinct().execute()).map((r) => r.firm_id as number),
  );
  for (const firm of await db.selectFrom('firms').select('id').orderBy('id').execute()) {
    if (withCycles.has(firm.id)) continue;
    await db
      .insertInto('rebid_cycles')
      .values(
        STARTER.map(([service, every_years]) => ({
          firm_id: firm.id,
          service,
          every_years,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
}
