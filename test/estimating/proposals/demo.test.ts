// The demo workspace's proposal (src/seed/demo-proposal.ts): sent through the embedded outbox, so
// its page is ready to sign out of the box, with the email in the outbox folder.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listOutbox, readOutboxMessage } from '#platform/mail/outbox.ts';
import { seedDemoWorkspace } from '#src/seed/demo.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('the demo workspace has a sent proposal with a 25% deposit, a custom section and its email in the outbox', async () => {
  const demo = await seedDemoWorkspace(t.env, 'http://groundwork.test:8080');
  const api = t.as(demo!.key);
  const list = (await api.get('/v1/proposals')).body.data;
  expect(list).toHaveLength(1);
  const p = (await api.get(`/v1/proposals/${list[0].id}`)).body.data;
  expect(p).toMatchObject({ status: 'sent', link: { active: true }, sections: { deposit_percent: 25 } });
  expect(p.sections.custom_sections[0].title).toBe('Warranty');
  expect(demo!.pages).toContainEqual({ label: 'Proposal (sent, ready to sign)', path: new URL(p.share_url).pathname });
  const outbox = await listOutbox(t.dataDir);
  const messages = await Promise.all(outbox.map((m) => readOutboxMessage(t.dataDir, m.name)));
  const link = `http://groundwork.test:8080${new URL(p.share_url).pathname}`;
  const texts = await Promise.all(messages.map(async (m) => (m === null ? '' : ((await simpleParser(m)).text ?? ''))));
  expect(texts.some((text) => text.includes(link))).toBe(true);
}, 60_000);
