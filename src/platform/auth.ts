// Key authentication and the checks every /v1 call passes before its handler (document 1,
// Authentication): key, workspace (partner keys name it), billing, plan, permission, acting user.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { compiledOnce } from '#db/compiled-once.ts';
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

type IdentifiedKey = KeyRow & { hash: string };

/**
 * Step 1, before the body is read: the key must exist and be live, so a caller without a usable
 * key hears 401 and never a 400 about its body. A missing or malformed key throws at once; a key
 * this process resolved within the memo's TTL comes back without a promise, as every call of a
 * busy client's does (the hooks below continue on the same turn).
 */
export function identifyKey(
  db: Kysely<DB>,
  request: FastifyRequest,
  cacheTtlMs = 0,
): IdentifiedKey | Promise<IdentifiedKey> {
  const key = keyOf(request);
  if (!key) throw unauthorized('Missing API key', { message: 'Provide API key in X-API-Key header' });
  const prefix = keyPrefix(key);
  if (!prefix) throw INVALID_KEY();
  const hash = hashKey(key);
  return cachedAuth<IdentifiedKey>(`key|${hash}`) ?? lookUpKey(db, prefix, hash, cacheTtlMs);
}

// The reads of a memo miss, compiled once: each key a server serves misses the memo once a TTL
// (a second by default), and building these three with Kysely cost a third of such a call.
const keyByPrefix = compiledOnce((db, prefix: string) =>
  db
    .selectFrom('api_keys')
    .select(['id', 'kind', 'key_hash', 'firm_id', 'user_id', 'permissions', 'revoked_at'])
    .where('prefix', '=', prefix),
);
const firmById = compiledOnce((db, id: number) => db.selectFrom('firms').selectAll().where('id', '=', id));
const userById = compiledOnce((db, id: number) => db.selectFrom('users').selectAll().where('id', '=', id));

async function lookUpKey(db: Kysely<DB>, prefix: string, hash: string, cacheTtlMs: number): Promise<IdentifiedKey> {
  const [row] = (await keyByPrefix(db, prefix)) as (KeyRow | undefined)[];
  if (!row || row.revoked_at !== null || !hashesMatch(row.key_hash, hash)) throw INVALID_KEY();
  const identified = { ...row, hash };
  rememberAuth(`key|${hash}`, identified, cacheTtlMs);
  return identified;
}

/**
 * Step 2, once the body is parsed: the workspace (partner keys name it), its user and
 * permissions; from the memo without a promise, like step 1.
 */
export function authenticate(
  db: Kysely<DB>,
  request: FastifyRequest,
  key: IdentifiedKey,
  cacheTtlMs = 0,
): AuthContext | Promise<AuthContext> {
  const named = firmIdFrom(request);
  dropFirmId(request);
  const memo = `ctx|${key.hash}|${named ?? ''}`;
  return cachedAuth<AuthContext>(memo) ?? resolveAndRemember(db, key, named, memo, cacheTtlMs);
}

async function resolveAndRemember(
  db: Kysely<DB>,
  key: KeyRow,
  named: unknown,
  memo: string,
  cacheTtlMs: number,
): Promise<AuthContext> {
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

  const [[firm], [user]] = await Promise.all([firmById(db, firmId), userById(db, userId)]);
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
export type CountCall = (request: FastifyRequest, reply: FastifyReply, keyId: number | null) => void;

/** The rate limiter as authentication uses it (platform/rate-limit.ts, ApiLimits). */
export interface CallCounter {
  count: CountCall;
  peek(request: FastifyRequest, reply: FastifyReply, keyId: number): void;
  charge(request: FastifyRequest, reply: FastifyReply, keyId: number): void;
}

const IDENTIFIED = Symbol('identified API key');
type KeyedRequest = FastifyRequest & { [IDENTIFIED]: IdentifiedKey | null };
type RouteConfig = FastifyRequest['routeOptions']['config'];
type Done = (err?: Error) => void;

// What the hooks below do once a value is at hand, as functions of their own rather than closures
// made per call: the server runs under tsx, whose esbuild keeps function names, so each named
// closure made per call was also an Object.defineProperty of its name (~2% of a cached read).

/** Step 1 passed: the key's call is counted (or, counted on success, checked), then on to step 2. */
function countKnownKey(
  limits: CallCounter | undefined,
  config: RouteConfig,
  request: FastifyRequest,
  reply: FastifyReply,
  done: Done,
  key: IdentifiedKey,
): void {
  try {
    if (config.countOnSuccess) limits?.peek(request, reply, key.id);
    else if (config.rateLimit !== false) limits?.count(request, reply, key.id);
  } catch (limited) {
    done(limited as Error);
    return;
  }
  (request as KeyedRequest)[IDENTIFIED] = key;
  done();
}

/** Step 1 failed: the call counts against the client's address, and answers 401 (429 once over). */
function countUnknownCaller(
  limits: CallCounter | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  done: Done,
  refusal: Error,
): void {
  try {
    limits?.count(request, reply, null);
  } catch (limited) {
    done(limited as Error);
    return;
  }
  done(refusal);
}

/** Step 2 resolved: billing, plan, permission and acting-user checks, then the call goes on as `auth`. */
function admitContext(config: RouteConfig, request: FastifyRequest, done: Done, auth: AuthContext): void {
  try {
    authorize(auth, config.permissions, config.crewApp === true);
  } catch (refused) {
    done(refused as Error);
    return;
  }
  request.auth = auth;
  done();
}

/**
 * Installs authentication on every route of `app` that is not marked public. `count` (the rate
 * limiter) runs once the key is identified, so it counts a known key by its id and a call without a
 * usable key, whose 401 follows, against the client's address; routes with `rateLimit: false` do
 * not count a known key's calls.
 *
 * The hooks take Fastify's `done` callback rather than returning promises: a client calling
 * steadily is answered from the memo, and then the checks run synchronously, without the promise
 * turns async hooks cost on every call (docs/performance.md).
 */
export function installAuth(app: FastifyInstance, db: Kysely<DB>, cacheTtlMs = 0, limits?: CallCounter): void {
  app.decorateRequest('auth', null as unknown as AuthContext);
  // The key step 1 identified, for step 2 and the count on success: a decoration of the request (a
  // WeakMap keyed by requests cost ~1% of a cached read in its write barrier).
  app.decorateRequest(IDENTIFIED, null);
  // Each read of request.routeOptions builds a new object, so each hook reads it once; its
  // config carries the route's url (none on the not-found handler).
  app.addHook('onRequest', (request, reply, done) => {
    const config = request.routeOptions.config;
    if (!config?.url || config.public) return done();
    let key: IdentifiedKey | Promise<IdentifiedKey>;
    try {
      key = identifyKey(db, request, cacheTtlMs);
    } catch (refusal) {
      return countUnknownCaller(limits, request, reply, done, refusal as Error);
    }
    if (!(key instanceof Promise)) return countKnownKey(limits, config, request, reply, done, key);
    key.then(
      (known) => countKnownKey(limits, config, request, reply, done, known),
      (refusal: Error) => countUnknownCaller(limits, request, reply, done, refusal),
    );
  });
  // A call counted on success spends its call once its answer is a success.
  app.addHook('onResponse', (request, reply, done) => {
    const key = (request as KeyedRequest)[IDENTIFIED];
    if (request.routeOptions.config?.countOnSuccess && key && reply.statusCode < 300) {
      limits?.charge(request, reply, key.id);
    }
    done();
  });
  // preValidation: after the body is parsed (partner keys may name firm_id in it), before the
  // schema can refuse it.
  app.addHook('preValidation', (request, _reply, done) => {
    const config = request.routeOptions.config;
    if (!config?.url || config.public) return done();
    let auth: AuthContext | Promise<AuthContext>;
    try {
      auth = authenticate(db, request, (request as KeyedRequest)[IDENTIFIED]!, cacheTtlMs);
    } catch (err) {
      return done(err as Error);
    }
    if (!(auth instanceof Promise)) return admitContext(config, request, done, auth);
    auth.then((resolved) => admitContext(config, request, done, resolved), done);
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
