// Operator provisioning of API keys: a workspace's keys (each acts as one of its users) and
// partner keys (one key granted to several workspaces, each as one user). A key is shown once,
// when created; revoking is immediate (cached keys are forgotten).
import type { Static } from '@sinclair/typebox';
import type { Database } from '#db/database.ts';
import { validateBody } from '#platform/ajv.ts';
import { inTransaction } from '#platform/context.ts';
import { badRequest, conflict, notFound } from '#platform/errors.ts';
import { generateKey } from '#platform/keys.ts';
import { now, zWire } from '#platform/time.ts';
import { CreateKeyInput, CreatePartnerKeyInput } from './schemas.ts';
import { afterwardsForgetKeys, firmOrThrow } from './shared.ts';
import { userOrThrow } from './users.ts';

function keyObject(k: {
  id: number;
  kind: string;
  name: string | null;
  prefix: string;
  firm_id: number | null;
  user_id: number | null;
  permissions: string;
  revoked_at: string | null;
  created_at: string;
}) {
  return {
    id: k.id,
    kind: k.kind,
    name: k.name,
    prefix: k.prefix,
    firm_id: k.firm_id,
    user_id: k.user_id,
    permissions: JSON.parse(k.permissions) as string[],
    revoked_at: zWire(k.revoked_at),
    created_at: zWire(k.created_at),
  };
}

export async function createApiKey(database: Database, firmId: number, body: unknown) {
  const input = validateBody<Static<typeof CreateKeyInput>>(CreateKeyInput, body);
  return inTransaction(
    database,
    async (trx) => {
      await firmOrThrow(trx, firmId);
      const user = await userOrThrow(trx, firmId, input.user_id);
      if (user.removed_at !== null) throw conflict('User has been removed from the workspace');
      const generated = generateKey('workspace');
      const row = await trx
        .insertInto('api_keys')
        .values({
          kind: 'workspace',
          name: input.name ?? null,
          prefix: generated.prefix,
          key_hash: generated.hash,
          firm_id: firmId,
          user_id: user.id,
          permissions: JSON.stringify(input.permissions),
          revoked_at: null,
          created_at: now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...keyObject(row), key: generated.key };
      // A new random prefix that happens to be taken (1 in 62^8) is drawn again on the second run.
    },
    { uniqueRace: true },
  );
}

export async function listApiKeys(database: Database, firmId: number) {
  await firmOrThrow(database.db, firmId);
  const rows = await database.db
    .selectFrom('api_keys')
    .selectAll()
    .where('firm_id', '=', firmId)
    .orderBy('id')
    .execute();
  return rows.map(keyObject);
}

async function revoke(database: Database, keyId: number, scope: { firmId: number } | { partner: true }) {
  return afterwardsForgetKeys(
    inTransaction(database, async (trx) => {
      let q = trx.selectFrom('api_keys').selectAll().where('id', '=', keyId);
      q =
        'firmId' in scope
          ? q.where('firm_id', '=', scope.firmId).where('kind', '=', 'workspace')
          : q.where('kind', '=', 'partner');
      const key = await q.executeTakeFirst();
      if (!key) throw notFound('API key not found');
      if (key.revoked_at !== null) return keyObject(key);
      return keyObject(
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: now() })
          .where('id', '=', keyId)
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }),
  );
}

export const revokeApiKey = (database: Database, firmId: number, keyId: number) => revoke(database, keyId, { firmId });
export const revokePartnerKey = (database: Database, keyId: number) => revoke(database, keyId, { partner: true });

export async function createPartnerKey(database: Database, body: unknown) {
  const input = validateBody<Static<typeof CreatePartnerKeyInput>>(CreatePartnerKeyInput, body);
  const firms = input.grants.map((g) => g.firm_id);
  if (new Set(firms).size !== firms.length) throw badRequest('grants must name each firm_id once');
  return inTransaction(
    database,
    async (trx) => {
      for (const g of input.grants) {
        const user = await trx
          .selectFrom('users')
          .select(['id', 'removed_at'])
          .where('firm_id', '=', g.firm_id)
          .where('id', '=', g.user_id)
          .executeTakeFirst();
        if (!user) throw notFound(`User ${g.user_id} not found in workspace ${g.firm_id}`, { grant: g });
      }
      const generated = generateKey('partner');
      const row = await trx
        .insertInto('api_keys')
        .values({
          kind: 'partner',
          name: input.name ?? null,
          prefix: generated.prefix,
          key_hash: generated.hash,
          firm_id: null,
          user_id: null,
          permissions: JSON.stringify(input.permissions),
          revoked_at: null,
          created_at: now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('partner_key_grants')
        .values(input.grants.map((g) => ({ api_key_id: row.id, firm_id: g.firm_id, user_id: g.user_id })))
        .execute();
      return { ...keyObject(row), grants: input.grants, key: generated.key };
    },
    { uniqueRace: true },
  ); // a taken random prefix is drawn again, as for workspace keys
}
