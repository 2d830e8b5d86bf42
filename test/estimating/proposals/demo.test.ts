// The demo workspace's proposals (src/seed/demo-proposal.ts): sent through the embedded outbox,
// with the emails in the outbox folder; the walked job's contract (a 25% deposit, a custom
// section) signed by its customer, and one proposal waiting, so its page is ready to sign out of
// the box.
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

it('the demo workspace has a signed contract with a 25% deposit and a custom section, one proposal ready to sign, and their emails in the outbox', async () => {
  const demo = await seedDemoWorkspace(t.env, 'http://groundwork.test:8080');
  const api = t.as(demo!.key);
  const list = (await api.get('/v1/proposals')).body.data as any[];
  const contractRow = list.find((p) => p.status === 'accepted' && p.title.includes('mill and overlay'));
  const p = (await api.get(`/v1/proposals/${contractRow.id}`)).body.data;
  expect(p).toMatchObject({ status: 'accepted', link: { active: true }, sections: { deposit_percent: 25 } });
  expect(p.view_count).toBe(1);
  expect(p.first_viewed_at! >= p.sent_at!).toBe(true);
  expect(p.signature).toMatchObject({ signer_name: 'Marcus Lee', signer_email: 'mlee@northgateplaza.example' });
  expect(p.sections.custom_sections[0].title).toBe('Warranty');
  expect(demo!.pages).toContainEqual({
    label: 'Proposal (accepted, with the signed PDF)',
    path: new URL(p.share_url!).pathname,
  });
  const waiting = list.filter((x) => x.status === 'sent');
  expect(waiting).toHaveLength(1);
  expect(demo!.pages).toContainEqual({
    label: 'Proposal (sent, ready to sign)',
    path: new URL(waiting[0].share_url).pathname,
  });
  const outbox = await listOutbox(t.dataDir);
  const messages = await Promise.all(outbox.map((m) => readOutboxMessage(t.dataDir, m.name)));
  const texts = await Promise.all(messages.map(async (m) => (m === null ? '' : ((await simpleParser(m)).text ?? ''))));
  for (const sent of [p, waiting[0]]) {
    const link = `http://groundwork.test:8080${new URL(sent.share_url).pathname}`;
    expect(texts.some((text) => text.includes(link))).toBe(true);
  }
}, 60_000);
