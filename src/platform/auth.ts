// Key authentication and the checks every /v1 call passes before its handler (document 1,
// Authentication): key, workspace (partner keys name it), billing, plan, permission, acting user.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB, Firm, User } from '#db/tables.ts';
import { badRequest, forbidden, paymentRequired, unauthorized } from './errors.ts';
import { cachedAuth, rememberAuth } from './auth-cache.ts';
import { hashesMatch, hashKey, keyPrefix } from './keys.ts';
import { MISSING_PERMISSION_MESSAGE, PERMISSIONS, type Permission } from './permissions.ts';
import { billingBlocked, planIncludesApi } from './plans.ts';
import { recordIdOf } from './schemas.ts';
import { settingsOf, type Settings } from './workspace.ts';

export interface AuthContext {
  firm: Firm;
  settings: Settings;
  /** The acting user: the key's creator (or the partner grant's user). */
  user: User;
  keyId: number;
  permissions: ReadonlySet<Permission>;
  partner: boolean;
  /**
   * Workspace records read once and kept as long as this context is memoised (auth-cache.ts: the
   * memo's TTL, and every admin change in this process clears it): the job stages. Absent when
   * the context is not memoised, so each read goes to the database.
   */
  workspaceFacts?: Map<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** Key permissions the route needs; absent means any valid key. */
    permissions?: Permission[];
    /** No key needed (health). */
    public?: boolean;
    /** Also take the key from `Authorization: Bearer <key>` (what MCP clients send). */
    bearerKey?: boolean;
    /** A crew login may make this change (the crew app's interface, photo uploads, schedule requests). */
    crewApp?: boolean;
    /** The call counts against the key's rate limit only when it succeeds (2xx): condition ratings. */
    countOnSuccess?: boolean;
  }
}

const WRITE_PERMISSIONS: ReadonlySet<Permission> = new Set(['write_jobs', 'write_measurements', 'delete_records']);
const INVALID_KEY = () =>
  unauthorized('Invalid API key', { message: 'The API key is not recognized or has been revoked' });

type KeyRow = {
  id: number;
  kind: string;
  key_hash: string;
  firm_id: number | null;
  user_id: number | null;
  permissions: string;
  revoked_at: string | null;
};

/** The firm_id a query string or JSON object body carries, if any (read before validation). */
function firmIdIn(part: unknown): unknown {
  if (typeof part !== 'object' || part === null || Array.isArray(part) || !('firm_id' in part)) return undefined;
  return part.firm_id;
}

function firmIdFrom(request: FastifyRequest): unknown {
  return firmIdIn(request.query) ?? firmIdIn(request.body);
}

/** firm_id is an addressing parameter, not a record field: once read, it leaves the body. */
function dropFirmId(request: FastifyRequest): void {
  for (const part of [request.body, request.query]) {
    if (typeof part === 'object' && part !== null && !Array.isArray(part)) Reflect.deleteProperty(part, 'firm_id');
  }
}

/** The caller's key: X-API-Key, or on routes that allow it an `Authorization: Bearer` token. */
export function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  const key = (Array.isArray(header) ? header[0] : header)?.trim();
  if (key || !request.routeOptions.config.bearerKey) return key || undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return bearer?.[1];
}

/**
 * Step 1, before the body is read: the key must exist and be live, so a caller without a usable
 * key hears 401 and never a 400 about its body.
 */
export async function identifyKey(
  db: Kysely<DB>,
  request: FastifyRequest,
  cacheTtlMs = 0,
): Promise<KeyRow & { hash: string }> {
  const key = keyOf(request);
  if (!key) throw unauthorized('Missing API key', { message: 'Provide API key in X-API-Key header' });
  const prefix = keyPrefix(key);
  if (!prefix) throw INVALID_KEY();
  const hash = hashKey(key);
  const memo = `key|${hash}`;
  const cached = cachedAuth<KeyRow & { hash: string }>(memo);
  if (cached) return cached;
  const row = (await db
    .selectFrom('api_keys')
    .select(['id', 'kind', 'key_hash', 'firm_id', 'user_id', 'permissions', 'revoked_at'])
    .where('prefix', '=', prefix)
    .executeTakeFirst()) as KeyRow | undefined;
  if (!row || row.revoked_at !== null || !hashesMatch(row.key_hash, hash)) throw INVALID_KEY();
  const identified = { ...row, hash };
  rememberAuth(memo, identified, cacheTtlMs);
  return identified;
}

/** Step 2, once the body is parsed: the workspace (partner keys name it), its user and permissions. */
export async function authenticate(
  db: Kysely<DB>,
  request: FastifyRequest,
  key: KeyRow & { hash: string },
  cacheTtlMs = 0,
): Promise<AuthContext> {
  const named = firmIdFrom(request);
  dropFirmId(request);
  const memo = `ctx|${key.hash}|${named ?? ''}`;
  const cached = cachedAuth<AuthContext>(memo);
  if (cached) return cached;
  const auth = await resolveContext(db, key, named);
  if (cacheTtlMs > 0) auth.workspaceFacts = new Map();
  rememberAuth(memo, auth, cacheTtlMs);
  return auth;
}

async function resolveContext(db: Kysely<DB>, row: KeyRow, named: unknown): Promise<AuthContext> {
  let firmId: number;
  let userId: number;
  if (row.kind === 'partner') {
    if (named === undefined || named === '') {
      throw badRequest('firm_id is required', {
        message: 'Partner keys must name the workspace with firm_id on every call',
      });
    }
    // Not a 32-bit id names no workspace (and would overflow PostgreSQL's integer column).
    const id = recordIdOf(named);
    const grant =
      id !== null
        ? await db
            .selectFrom('partner_key_grants')
            .select('user_id')
            .where('api_key_id', '=', row.id)
            .where('firm_id', '=', id)
            .executeTakeFirst()
        : undefined;
    if (!grant) throw forbidden('Partner key has no access to this workspace', { firm_id: named });
    firmId = id!;
    userId = grant.user_id;
  } else {
    firmId = row.firm_id!;
    userId = row.user_id!;
    if (named !== undefined && recordIdOf(named) !== firmId) {
      throw forbidden('firm_id does not match this key', {
        message: 'A workspace key acts only for its own workspace',
      });
    }
  }

  const [firm, user] = await Promise.all([
    db.selectFrom('firms').selectAll().where('id', '=', firmId).executeTakeFirst(),
    db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst(),
  ]);
  if (!firm || !user) throw INVALID_KEY();
  const permissions = new Set(
    (JSON.parse(row.permissions) as string[]).filter((p): p is Permission =>
      (PERMISSIONS as readonly string[]).includes(p),
    ),
  );
  return { firm, settings: settingsOf(firm), user, keyId: row.id, permissions, partner: row.kind === 'partner' };
}

/** Billing, plan, permission and acting-user checks, in that order. */
export function authorize(auth: AuthContext, needed: Permission[] | undefined, crewApp = false): void {
  if (billingBlocked(auth.firm.subscription_status)) {
    throw paymentRequired('Payment required', {
      message: 'Workspace billing is past due or inactive',
      subscription_status: auth.firm.subscription_status,
    });
  }
  if (!planIncludesApi(auth.firm.plan)) {
    throw forbidden('Plan does not include API access', {
      message: 'API access needs the Gold plan or higher',
      code: 'plan_upgrade_required',
      plan: auth.firm.plan,
    });
  }
  for (const p of needed ?? []) {
    if (!auth.permissions.has(p))
      throw forbidden(MISSING_PERMISSION_MESSAGE[p], { code: 'missing_permission', permission: p });
  }
  if ((needed ?? []).some((p) => WRITE_PERMISSIONS.has(p))) {
    if (auth.user.removed_at !== null) {
      throw forbidden('Key owner unavailable', { message: 'The user who created this key has left the workspace' });
    }
    if (auth.user.role === 'viewer') {
      throw forbidden('Viewer cannot make changes', {
        message: "The key's user has the viewer role, which is read only",
        code: 'viewer_read_only',
      });
    }
    // Document 1: "a crew login is refused" where an office user is needed. Decided once, here: a
    // crew login writes only through the crew app's interface, photo uploads and schedule requests.
    if (auth.user.role === 'crew' && !crewApp) {
      throw forbidden('Office user required', {
        code: 'office_user_required',
        message:
          "The key's user is a crew login: it files time, daily reports, photos and schedule requests through the crew app, and reads the jobs it works on",
      });
    }
  }
}

/** Counts a call against the caller's rate limit: its key's id, or null for a call without a usable key. */
export type CountCall = (request: FastifyRequest, reply: FastifyReply, keyId: number | null) => Promise<void>;

/** The rate limiter as authentication uses it (platform/rate-limit.ts, ApiLimits). */
export interface CallCounter {
  count: CountCall;
  peek(request: FastifyRequest, reply: FastifyReply, keyId: number): Promise<void>;
  charge(request: FastifyRequest, reply: FastifyReply, keyId: number): Promise<void>;
}

/**
 * Installs authentication on every route of `app` that is not marked public. `count` (the rate
 * limiter) runs once the key is identified, so it counts a known key by its id and a call without a
 * usable key, whose 401 follows, against the client's address; routes with `rateLimit: false` do
 * not count a known key's calls.
 */
export function installAuth(app: FastifyInstance, db: Kysely<DB>, cacheTtlMs = 0, limits?: CallCounter): void {
  const count = limits?.count;
  app.decorateRequest('auth', null as unknown as AuthContext);
  const identified = new WeakMap<FastifyRequest, KeyRow & { hash: string }>();
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url || request.routeOptions.config.public) return;
    let key: KeyRow & { hash: string };
    try {
      key = await identifyKey(db, request, cacheTtlMs);
    } catch (err) {
      await count?.(request, reply, null);
      throw err;
    }
    const config = request.routeOptions.config;
    if (config.countOnSuccess) await limits?.peek(request, reply, key.id);
    else if (config.rateLimit !== false) await count?.(request, reply, key.id);
    identified.set(request, key);
  });
  // A call counted on success spends its call once its answer is a success.
  app.addHook('onResponse', async (request, reply) => {
    const key = identified.get(request);
    if (!request.routeOptions.config?.countOnSuccess || !key || reply.statusCode >= 300) return;
    await limits?.charge(request, reply, key.id);
  });
  // preValidation: after the body is parsed (partner keys may name firm_id in it), before the
  // schema can refuse it.
  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url || config.public) return;
    const auth = await authenticate(db, request, identified.get(request)!, cacheTtlMs);
    authorize(auth, config.permissions, config.crewApp === true);
    request.auth = auth;
  });
}

/** The context of a user acting with `permissions` (the seed and the CLI act without a key). */
export async function actingAs(
  db: Kysely<DB>,
  firmId: number,
  userId: number,
  permissions: Permission[] = [...PERMISSIONS],
): Promise<AuthContext> {
  const firm = await db.selectFrom('firms').selectAll().where('id', '=', firmId).executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  return { firm, settings: settingsOf(firm), user, keyId: 0, permissions: new Set(permissions), partner: false };
}
