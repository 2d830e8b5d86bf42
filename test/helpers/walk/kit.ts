// THE WALK (GUIDE, Quality bar), contributed per area: every route that takes an id is tried with
// another workspace's ids (404, and nothing changes), every write route with a read-only key (403)
// and with a crew login's key (403 Office user required, unless the route is the crew app's),
// every read route with a key lacking read_jobs (403) and every deletion and merge with a key
// lacking delete_records (403). Document 1, Conventions 1 and Permissions.
//
// An area describes itself once, in an `AreaWalk` beside its tests (test/<area>/walk.ts): how to
// make its records, the reads that show them, the calls that must not reach them from another
// workspace and, for each of its routes, what a key needs and how to call it. Its walk.test.ts
// runs `walkArea`; test/platform/walk-coverage.test.ts fails while any /v1 route has no case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

/** The ids an area's provisioning made, by name (later areas see the earlier areas' ids too). */
export type Ids = Readonly<Record<string, any>>;

/** One workspace of the walk and the ids of its records. */
export interface Side {
  w: Workspace;
  ids: Ids;
}

/** A call with B's key that names A's records: it must answer 404 (with `error` when given). */
export interface Call {
  method: string;
  path: string;
  body?: unknown;
  error?: string;
}

/**
 * What a key needs to call a route:
 * - `write`: write_jobs (a read-only key hears 403 API key lacks job write permission);
 * - `delete`: write_jobs and delete_records (deletes and merges);
 * - `read`: read_jobs (a key without it hears 403 API key lacks job read permission);
 * - `read-post`: a POST that only reads, so it needs read_jobs and no write permission;
 * - `measure`: Read measurements (condition ratings, takeoffs): a key without it hears 403 API key
 *   lacks measurement read permission, whatever job permissions it has; a key with only it is enough;
 * - `measure-write`: Write measurements (starting and editing takeoffs): a key with every other
 *   permission hears 403 API key lacks measurement write permission;
 * - `measure-delete`: Write measurements and Delete records (deleting a takeoff);
 * - `any-key`: any valid key;
 * - `public`: no key at all (the link is the credential), so no key walk applies.
 */
export type Need =
  | 'write'
  | 'delete'
  | 'read'
  | 'read-post'
  | 'measure'
  | 'measure-write'
  | 'measure-delete'
  | 'any-key'
  | 'public';

/** How to call a route with A's ids, so that only the permission stands between the call and its effect. */
export interface CallCase {
  needs: Exclude<Need, 'public'>;
  /** The concrete path (no query). */
  path: (a: Ids) => string;
  /** The query a permitted read needs to answer `ok` (search text, a merge target). */
  query?: (a: Ids) => string;
  /** A body the route would accept; none for DELETE and GET, `{}` for other methods when not given. */
  body?: (a: Ids) => unknown;
  /** The status a permitted read or read-post answers (200 unless given). */
  ok?: number;
  /** For `delete`: the calls a key without delete_records makes, when not the one above. */
  noDelete?: (a: Ids) => { path: string; body?: unknown }[];
  /** Why a route with a path parameter needs no foreignIds call (the parameter names no record). */
  noForeign?: string;
}
export type RouteCase = CallCase | { needs: 'public'; noForeign?: string };

/** `'METHOD /v1/path/{param}'`, exactly as in the OpenAPI document. */
export type RouteName = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /v1/${string}`;

export interface AreaWalk {
  area: string;
  /** What the walk's workspaces need (settings, divisions), merged into the provisioning body. */
  workspace?: Record<string, unknown>;
  /** Makes this area's records in `w` (labelled `label`) and returns their ids; `ids` holds the earlier areas'. */
  provision(ctx: { t: TestApp; w: Workspace; label: string; ids: Ids }): Promise<Record<string, unknown>>;
  /** The reads (with the workspace's own key) that show this area's records; each must answer 200. */
  snapshot(ids: Ids): string[];
  /** What only the database shows, compared like the snapshot. */
  state?(t: TestApp, ids: Ids): Promise<unknown>;
  /** Calls with B's key naming A's ids; each must be 404. */
  foreignIds(a: Ids, b: Ids): Call[];
  /** Lookups in B by A's references (lists, exports, upserts): run after the 404s, A must not change. */
  lookups?(ctx: { t: TestApp; A: Side; B: Side }): Promise<void>;
  /** Every route of the area. */
  routes: Record<RouteName, RouteCase>;
}

const READ = 'API key lacks job read permission';
const WRITE = 'API key lacks job write permission';
const DELETE = 'API key lacks delete permission';
const MEASURE = 'API key lacks measurement read permission';
const MEASURE_WRITE = 'API key lacks measurement write permission';
/** Writes of any kind: a crew login is refused on each outside the crew app. */
const WRITES = new Set<Need>(['write', 'delete', 'measure-write', 'measure-delete']);
/** Document 1: a crew login is refused where an office user is needed (platform/auth.ts). */
const OFFICE = 'Office user required';
let crewLogins = 0;

/** The writes a crew login may make (`x-crew-app` in the OpenAPI document: the crew app, photo uploads, schedule requests). */
async function crewAppRoutes(t: TestApp): Promise<Set<string>> {
  const doc = await t.anon.get('/v1/openapi.json');
  const out = new Set<string>();
  for (const [path, item] of Object.entries(doc.body.paths as Record<string, Record<string, any>>))
    for (const [method, op] of Object.entries(item))
      if (op?.['x-crew-app'] === true) out.add(`${method.toUpperCase()} ${path}`);
  return out;
}

/** Ids that throw on a name nobody provisioned, so a typo never turns into a vacuous 404. */
export function strictIds(ids: Record<string, unknown>): Ids {
  return new Proxy(ids, {
    get(target, key) {
      if (typeof key === 'string' && key !== 'then' && !(key in target)) {
        throw new Error(`no id named "${key}" (provisioned: ${Object.keys(target).join(', ')})`);
      }
      return Reflect.get(target, key);
    },
  });
}

const methodOf = (route: string) => route.slice(0, route.indexOf(' '));

/** A route's cases that can be called, with their method. */
function callCases(walk: AreaWalk): [string, string, CallCase][] {
  return Object.entries(walk.routes as Record<string, RouteCase>)
    .filter((e): e is [string, CallCase] => e[1].needs !== 'public')
    .map(([route, c]) => [route, methodOf(route), c]);
}

const bodyOf = (method: string, c: CallCase, a: Ids) =>
  c.body ? c.body(a) : method === 'DELETE' || method === 'GET' ? undefined : {};

/** A workspace provisioned with the records of `walks`, in order (each area sees the earlier areas' ids). */
export async function provision(t: TestApp, walks: AreaWalk[], label: string): Promise<Side> {
  // Settings merge key by key, so one area's switches never drop another's.
  const body = Object.assign({}, ...walks.map((x) => x.workspace ?? {}));
  body.settings = Object.assign({}, ...walks.map((x) => (x.workspace?.settings as object | undefined) ?? {}));
  const w = await t.workspace(body);
  const ids: Record<string, unknown> = {};
  for (const walk of walks) {
    const made = await walk.provision({ t, w, label, ids: strictIds(ids) });
    for (const name of Object.keys(made))
      expect(ids, `${walk.area} provisions "${name}" again`).not.toHaveProperty(name);
    Object.assign(ids, made);
  }
  return { w, ids: strictIds(ids) };
}

/**
 * A signed link to a stored file is made afresh on each read and its expiry moves with the clock,
 * so two reads of an unchanged photo may differ there: the walk compares the object it names.
 */
export const unsigned = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body), (_key, value) =>
    typeof value === 'string' && /\/v1\/objects\/[^?]+\?/.test(value)
      ? `signed link to ${new URL(value).searchParams.get('key')}`
      : value,
  );

/** Everything the provisioned areas' records look like (and the `extra` reads), read with the workspace's own key. */
export async function snapshot(t: TestApp, walks: AreaWalk[], side: Side, extra: string[] = []) {
  const out: Record<string, unknown> = {};
  for (const p of extra) {
    const res = await side.w.api.get(p);
    expect(res.status, p).toBe(200);
    out[p] = unsigned(res.body);
  }
  for (const walk of walks) {
    for (const p of walk.snapshot(side.ids)) {
      const res = await side.w.api.get(p);
      expect(res.status, p).toBe(200);
      out[p] = unsigned(res.body);
    }
    if (walk.state) out[`${walk.area}: state`] = await walk.state(t, side.ids);
  }
  return out;
}

/**
 * The walk of one area, as describe blocks of the calling test file: its own app, and workspaces
 * provisioned with the areas in `after` (in order) and then this one. Only this area's calls and
 * routes are walked; the snapshots cover every provisioned area.
 */
export function walkArea(walk: AreaWalk, options: { after?: AreaWalk[] } = {}) {
  const walks = [...(options.after ?? []), walk];
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  describe(`${walk.area}: another workspace's ids are 404 and change nothing`, () => {
    let A: Side;
    let B: Side;
    beforeAll(async () => {
      A = await provision(t, walks, 'A');
      B = await provision(t, walks, 'B');
    });

    it("every id-taking call, made with B's key and A's ids, answers 404", async () => {
      const beforeA = await snapshot(t, walks, A);
      const beforeB = await snapshot(t, walks, B);
      const calls = walk.foreignIds(A.ids, B.ids);
      const wrong: string[] = [];
      for (const c of calls) {
        const res = await B.w.api.request(c.method, c.path, c.body);
        const label = `${c.method} ${c.path} ${c.body ? JSON.stringify(c.body) : ''}`;
        if (res.status !== 404) wrong.push(`${label} -> ${res.status} ${JSON.stringify(res.body)}`);
        else if (c.error && res.body?.error !== c.error)
          wrong.push(`${label} -> 404 but error ${JSON.stringify(res.body?.error)}, expected ${c.error}`);
      }
      expect(wrong).toEqual([]);
      expect(await snapshot(t, walks, A)).toEqual(beforeA);
      expect(await snapshot(t, walks, B)).toEqual(beforeB);
    });

    if (walk.lookups)
      it("lookups by A's refs find nothing in B, and upserts in B never match A's records", async () => {
        const beforeA = await snapshot(t, walks, A);
        await walk.lookups!({ t, A, B });
        expect(await snapshot(t, walks, A)).toEqual(beforeA);
      });
  });

  describe(`${walk.area}: key permissions on every route`, () => {
    let P: Side;
    beforeAll(async () => {
      P = await provision(t, walks, 'P');
    });
    const cases = callCases(walk);
    const asKey = async (permissions: string[]) => t.as(await t.key(P.w.firmId, P.w.ownerId, permissions));

    if (cases.some(([, , c]) => c.needs === 'write' || c.needs === 'delete'))
      it('a read-only key (read_jobs) gets 403 on every write route and nothing changes', async () => {
        const before = await snapshot(t, walks, P);
        const readOnly = await asKey(['read_jobs']);
        const wrong: string[] = [];
        for (const [route, method, c] of cases.filter(([, , x]) => x.needs === 'write' || x.needs === 'delete')) {
          const res = await readOnly.request(method, c.path(P.ids), bodyOf(method, c, P.ids));
          if (res.status !== 403 || res.body?.error !== WRITE)
            wrong.push(`${route} -> ${res.status} ${JSON.stringify(res.body)}`);
        }
        expect(wrong).toEqual([]);
        expect(await snapshot(t, walks, P)).toEqual(before);
      });

    if (cases.some(([, , c]) => WRITES.has(c.needs)))
      it("a crew login's key, with every permission, gets 403 Office user required on every write outside the crew app, and nothing changes", async () => {
        const crewApp = await crewAppRoutes(t);
        // The crew login is made before the snapshot: it is the one change the test makes itself.
        const crew = (
          await t.user(P.w.firmId, {
            name: 'Walk crew login',
            email: `walk-crew-${++crewLogins}@crew.test`,
            role: 'crew',
          })
        ).api;
        const before = await snapshot(t, walks, P);
        const wrong: string[] = [];
        for (const [route, method, c] of cases.filter(([, , x]) => WRITES.has(x.needs))) {
          if (crewApp.has(route)) continue;
          const res = await crew.request(method, c.path(P.ids), bodyOf(method, c, P.ids));
          if (res.status !== 403 || res.body?.error !== OFFICE)
            wrong.push(`${route} -> ${res.status} ${JSON.stringify(res.body)}`);
        }
        expect(wrong).toEqual([]);
        expect(await snapshot(t, walks, P)).toEqual(before);
      });

    if (cases.some(([, , c]) => c.needs === 'read' || c.needs === 'read-post' || c.needs === 'any-key'))
      it('the same read-only key reads every read route', async () => {
        const readOnly = await asKey(['read_jobs']);
        const wrong: string[] = [];
        for (const [route, method, c] of cases.filter(
          ([, , x]) => x.needs === 'read' || x.needs === 'read-post' || x.needs === 'any-key',
        )) {
          const res = await readOnly.request(
            method,
            c.path(P.ids) + (c.query?.(P.ids) ?? ''),
            bodyOf(method, c, P.ids),
          );
          if (res.status !== (c.ok ?? 200)) wrong.push(`${route} -> ${res.status} ${JSON.stringify(res.body)}`);
        }
        expect(wrong).toEqual([]);
      });

    if (cases.some(([, , c]) => c.needs === 'read' || c.needs === 'read-post' || c.needs === 'any-key'))
      it('a key without read_jobs gets 403 API key lacks job read permission on every read route', async () => {
        const writeOnly = await asKey(['write_jobs']);
        const wrong: string[] = [];
        for (const [route, method, c] of cases.filter(([, , x]) => x.needs === 'any-key')) {
          const res = await writeOnly.request(method, c.path(P.ids), bodyOf(method, c, P.ids));
          if (res.status !== (c.ok ?? 200)) wrong.push(`${route} -> ${res.status} ${JSON.stringify(res.body)}`);
        }
        for (const [route, method, c] of cases.filter(([, , x]) => x.needs === 'read' || x.needs === 'read-post')) {
          const res = await writeOnly.request(method, c.path(P.ids), bodyOf(method, c, P.ids));
          if (res.status !== 403 || res.body?.error !== READ)
            wrong.push(`${route} -> ${res.status} ${JSON.stringify(res.body)}`);
        }
        expect(wrong).toEqual([]);
      });

    if (cases.some(([, , c]) => c.needs === 'measure'))
      it('measurement routes need read_measurements: job permissions are not enough, and it alone is', async () => {
        const jobsOnly = await asKey(['read_jobs', 'write_jobs', 'delete_records']);
        const measures = await asKey(['read_measurements']);
        const wrong: string[] = [];
        for (const [route, method, c] of cases.filter(([, , x]) => x.needs === 'measure')) {
          const url = c.path(P.ids) + (c.query?.(P.ids) ?? '');
          const refused = await jobsOnly.request(method, url, bodyOf(method, c, P.ids));
          if (refused.status !== 403 || refused.body?.error !== MEASURE)
            wrong.push(`${route} without read_measurements -> ${refused.status} ${JSON.stringify(refused.body)}`);
          const res = await measures.request(method, url, bodyOf(method, c, P.ids));
          if (res.status !== (c.ok ?? 200)) wrong.push(`${route} -> ${res.status} ${JSON.stringify(res.body)}`);
        }
        expect(wrong).toEqual([]);
      });

    if (cases.some(([, , c]) => c.needs === 'measure-write' || c.needs === 'measure-delete'))
      it('measurement writes need write_measurements (every other permission is not enough), deletions delete_records too; nothing changes', async () => {
        const before = await snapshot(t, walks, P);
        const allButWrite = await asKey(['read_jobs', 'write_jobs', 'delete_records', 'read_measurements']);
        const noDelete = await asKey(['read_jobs', 'write_jobs', 'read_measurements', 'write_measurements']);
        const wrong: string[] = [];
        for (const [route, method, c] of cases.filter(
          ([, , x]) => x.needs === 'measure-write' || x.needs === 'measure-delete',
        )) {
          const res = await allButWrite.request(method, c.path(P.ids), bodyOf(method, c, P.ids));
          if (res.status !== 403 || res.body?.error !== MEASURE_WRITE)
            wrong.push(`${route} without write_measurements -> ${res.status} ${JSON.stringify(res.body)}`);
          if (c.needs !== 'measure-delete') continue;
          for (const call of c.noDelete?.(P.ids) ?? [{ path: c.path(P.ids), body: bodyOf(method, c, P.ids) }]) {
            const refused = await noDelete.request(method, call.path, call.body);
            if (refused.status !== 403 || refused.body?.error !== DELETE)
              wrong.push(
                `${route} ${call.path} without delete_records -> ${refused.status} ${JSON.stringify(refused.body)}`,
              );
          }
        }
        expect(wrong).toEqual([]);
        expect(await snapshot(t, walks, P)).toEqual(before);
      });

    if (cases.some(([, , c]) => c.needs === 'delete'))
      it('deletes and merges also need delete_records (403 API key lacks delete permission)', async () => {
        const before = await snapshot(t, walks, P);
        const noDelete = await asKey(['read_jobs', 'write_jobs']);
        const wrong: string[] = [];
        for (const [route, method, c] of cases.filter(([, , x]) => x.needs === 'delete')) {
          for (const call of c.noDelete?.(P.ids) ?? [{ path: c.path(P.ids), body: bodyOf(method, c, P.ids) }]) {
            const res = await noDelete.request(method, call.path, call.body);
            if (res.status !== 403 || res.body?.error !== DELETE)
              wrong.push(`${route} ${call.path} -> ${res.status} ${JSON.stringify(res.body)}`);
          }
        }
        expect(wrong).toEqual([]);
        expect(await snapshot(t, walks, P)).toEqual(before);
      });
  });
}

export interface Route {
  method: string;
  path: string;
}

/**
 * The platform's keyless file links (platform/storage/routes.ts): no area's, no key, no record id
 * in the path (the signature is the credential); test/platform/storage tests them.
 */
const OBJECT_LINKS = '/v1/objects/{signature}';

/**
 * The /v1 routes a key can call: from the OpenAPI document (without health, the document itself,
 * the docs, the object links and the MCP server), checked against Fastify's own route table so nothing under /v1 is missing from it.
 */
export async function v1Routes(t: TestApp): Promise<Route[]> {
  const doc = await t.anon.get('/v1/openapi.json');
  expect(doc.status).toBe(200);
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (path === '/v1/health' || path === '/v1/openapi.json' || path.startsWith('/v1/docs')) continue;
      if (path === OBJECT_LINKS) continue;
      routes.push({ method: method.toUpperCase(), path });
    }
  }
  // Fastify's route table: nothing under /v1 may be missing from the OpenAPI document.
  const norm = (p: string) => p.replace(/\{[^}]+\}/g, '{}').replace(/:[A-Za-z_]+(\|:[A-Za-z_]+)*/g, '{}');
  const known = new Set(routes.map((r) => `${r.method} ${norm(r.path)}`));
  const stack: string[] = [];
  const missing: string[] = [];
  let seen = 0;
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.floor(at / 4);
    const m = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 3))!;
    stack.length = depth;
    stack.push(m[1]!);
    const full = stack.join('');
    if (
      !m[2] ||
      !full.startsWith('/v1/') ||
      full.startsWith('/v1/docs') ||
      full === '/v1/health' ||
      full === '/v1/openapi.json' ||
      full.startsWith('/v1/objects/') ||
      // The MCP server is not a REST operation: its tools are these routes, and
      // test/integrations/mcp holds it to their answers.
      full === '/v1/mcp'
    )
      continue;
    for (const method of m[2]
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== 'HEAD')) {
      seen++;
      if (!known.has(`${method} ${norm(full)}`)) missing.push(`${method} ${full}`);
    }
  }
  expect(missing).toEqual([]);
  expect(seen).toBe(routes.length);
  return routes;
}

/** The route (`METHOD /v1/path/{param}`) a concrete call reaches, among `routes`. */
export function routesOf(call: { method: string; path: string }, routes: string[]): string[] {
  const path = call.path.split('?')[0]!;
  return routes.filter((route) => {
    const [method, template] = route.split(' ') as [string, string];
    if (method !== call.method) return false;
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    return new RegExp(`^${pattern}$`).test(path);
  });
}
