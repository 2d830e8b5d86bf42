// Sending a landscape takeoff for cleanup and taking it back (document 3: "a takeoff sent for
// cleanup is 403 until done"). Cleanup is a service the operator runs, not the workspace, so the
// switch is the operator's: POST /admin/v1/workspaces/{firm_id}/landscape-takeoffs/{id}/cleanup
// {sent: true | false}. While sent, item changes answer 403 and a run finishing fails with
// takeoff_sent_for_cleanup.
import { Type } from '@sinclair/typebox';
import type { Database } from '#db/database.ts';
import { validateBody } from '#platform/ajv.ts';
import { now } from '#platform/time.ts';
import { takeoffObject } from './serialize.ts';
import { takeoffNotFound } from './takeoffs.ts';

const CleanupInput = Type.Object({ sent: Type.Boolean() }, { additionalProperties: false });

export async function setTakeoffCleanup(database: Database, firmId: number, id: number, body: unknown) {
  const { sent } = validateBody<{ sent: boolean }>(CleanupInput, body);
  const takeoff = await database.db
    .updateTable('landscape_takeoffs')
    .set({ cleanup: sent ? 'sent' : null, updated_at: now() })
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!takeoff) throw takeoffNotFound();
  return { data: takeoffObject(takeoff) };
}
