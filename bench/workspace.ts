// The workspace every benchmark measures: "Bench Paving", its owner, and an owner key, made by the
// admin services directly (no HTTP, no rate limit).
import { installAreas } from '#src/area.ts';
import { AREAS } from '#src/areas.ts';
import type { Database } from '#db/database.ts';
import { createApiKey } from '#admin/keys.ts';
import { createWorkspace } from '#admin/workspaces.ts';
import { PERMISSIONS, type Permission } from '#platform/permissions.ts';

export async function benchWorkspace(
  database: Database,
  permissions: Permission[] = [...PERMISSIONS],
): Promise<{ firmId: number; ownerId: number; key: string }> {
  // A new workspace gets every area's starter records, so the areas are installed first.
  installAreas(AREAS);
  const { firm_id: firmId, owner_user_id: ownerId } = await createWorkspace(database, {
    name: 'Bench Paving',
    owner: { name: 'Bench Owner', email: 'owner@bench.example.com' },
  });
  const { key } = await createApiKey(database, firmId, { user_id: ownerId, name: 'bench', permissions });
  return { firmId, ownerId, key };
}
