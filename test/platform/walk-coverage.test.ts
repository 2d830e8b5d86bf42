// The walk covers the whole API: every /v1 route the OpenAPI document publishes (Fastify's own
// table checked against it) has a case in exactly one area's walk, no case names a route that
// does not exist, and every route taking a record's id has a foreignIds call. A new route fails
// here until its area's walk.ts says how to call it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ALL_WALKS } from '#test/helpers/walk/all.ts';
import { routesOf, v1Routes, type Ids, type RouteCase } from '#test/helpers/walk/kit.ts';

const WALKS = ALL_WALKS;

let t: TestApp;
let published: string[];
beforeAll(async () => {
  t = await startApp();
  published = (await v1Routes(t)).map((r) => `${r.method} ${r.path}`);
});
afterAll(() => t.close());

const cases = () =>
  WALKS.flatMap((walk) =>
    Object.entries(walk.routes as Record<string, RouteCase>).map(([route, c]) => ({ route, c, area: walk.area })),
  );

/** Ids that stand for any record: only the shape of the calls matters here. */
const anyIds = (n: number): Ids => new Proxy({}, { get: (_, key) => (key === 'then' ? undefined : n) });

describe('the walk covers every route', () => {
  it('every /v1 operation in the OpenAPI document has a route case', () => {
    expect(published.length).toBeGreaterThanOrEqual(136);
    const cased = new Set(cases().map((x) => x.route));
    expect(published.filter((r) => !cased.has(r))).toEqual([]);
  });

  it('no route case names a route that does not exist, and none is cased twice', () => {
    const all = cases();
    expect(all.filter((x) => !published.includes(x.route)).map((x) => `${x.area}: ${x.route}`)).toEqual([]);
    const twice = all.filter((x, i) => all.findIndex((y) => y.route === x.route) !== i);
    expect(twice.map((x) => `${x.area}: ${x.route}`)).toEqual([]);
  });

  it('every id-taking route has a foreignIds call in its area', () => {
    const missing: string[] = [];
    for (const walk of WALKS) {
      const areaRoutes = Object.keys(walk.routes);
      const called = new Set(walk.foreignIds(anyIds(1001), anyIds(2002)).flatMap((call) => routesOf(call, areaRoutes)));
      for (const [route, c] of Object.entries(walk.routes as Record<string, RouteCase>)) {
        if (route.includes('{') && !c.noForeign && !called.has(route)) missing.push(`${walk.area}: ${route}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every foreignIds call reaches a route of the API', () => {
    const stray: string[] = [];
    for (const walk of WALKS) {
      for (const call of walk.foreignIds(anyIds(1001), anyIds(2002))) {
        if (routesOf(call, published).length !== 1) stray.push(`${walk.area}: ${call.method} ${call.path}`);
      }
    }
    expect(stray).toEqual([]);
  });
});
