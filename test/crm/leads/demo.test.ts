// The demo workspace's leads (src/seed/demo-leads.ts): one in each state, made by intake.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoWorkspace } from '#src/seed/demo.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('the demo workspace has a new, a contacted, a converted, a dismissed and an auto-spam lead', async () => {
  const demo = await seedDemoWorkspace(t.env);
  expect(demo).not.toBeNull();
  const res = await t.as(demo!.key).get('/v1/leads');
  expect(res.status).toBe(200);
  const byName = Object.fromEntries(res.body.data.map((l: any) => [l.name, l]));
  expect(byName['Marcus Bell']).toMatchObject({ status: 'new', source: 'Website form', auto_spam: false });
  expect(byName['Teresa Nguyen']).toMatchObject({ status: 'contacted', first_contact_kind: 'call' });
  expect(byName['Greg Albright']).toMatchObject({ status: 'converted' });
  expect(byName['Kim Park']).toMatchObject({ status: 'dismissed' });
  expect(byName['Rank First SEO']).toMatchObject({ status: 'spam', auto_spam: true });
}, 60_000);
