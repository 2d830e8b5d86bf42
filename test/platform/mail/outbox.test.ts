// The embedded mail default: complete .eml files in <dataDir>/outbox, listed and read by the
// operator over /admin/v1/outbox and `groundwork admin outbox`; the queue over /admin/v1/mail and
// `groundwork admin mail list`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';
import { inTransaction } from '#platform/context.ts';
import { outboxDir } from '#platform/mail/outbox.ts';
import { queueMail } from '#platform/mail/queue.ts';
import { renderMail, teammateFooter } from '#platform/mail/templates.ts';
import { adminCli } from '#test/helpers/cli.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
let firmId: number;
let dir: string;

beforeAll(async () => {
  t = await startApp();
  firmId = (await t.workspace({ name: 'Acme "Paving" & Sons' })).firmId;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-mail-cli-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const { admin, json } = adminCli(
  () => path.join(dir, 'cli.sqlite'),
  () => t.dataDir,
);

function alert(n: number) {
  return {
    firmId,
    kind: 'lead_alert',
    ref: `lead:${n}`,
    to: `sam${n}@acme.test`,
    fromName: 'Acme "Paving" & Sons',
    replyTo: 'owner@acme.test',
    mail: renderMail({
      subject: `New lead ${n}: Dana <script>`,
      paragraphs: ['A new lead came in.'],
      facts: [
        ['Name', 'Dana <b>Doe</b>'],
        ['Phone', null],
      ],
      footer: teammateFooter('Acme "Paving" & Sons'),
    }),
  };
}

describe('the outbox', () => {
  it('holds each sent message as a complete .eml the operator can list and read', async () => {
    await inTransaction(t.database, async (trx) => {
      await queueMail(trx, t.env.deps.mail, alert(1));
      await queueMail(trx, t.env.deps.mail, alert(2));
    });
    expect(await t.sendQueuedMail()).toBe(2);
    const files = fs.readdirSync(outboxDir(t.dataDir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(2);

    const list = await t.admin.get('/admin/v1/outbox');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    const subjects = list.body.data.map((m: { subject: string }) => m.subject).sort();
    expect(subjects).toEqual(['New lead 1: Dana <script>', 'New lead 2: Dana <script>']);
    const first = list.body.data.find((m: { to: string }) => m.to.includes('sam1@acme.test'));
    expect(first.message_id).toMatch(/^<[0-9a-f-]+@localhost>$/);
    expect(first.size).toBeGreaterThan(200);

    const one = await t.admin.get(`/admin/v1/outbox/${first.name}`);
    expect(one.status).toBe(200);
    expect(one.headers['content-type']).toMatch(/^message\/rfc822/);
    const parsed = await simpleParser(one.body as string);
    expect(parsed.subject).toBe('New lead 1: Dana <script>');
    expect(parsed.from?.value).toEqual([{ address: 'groundwork@localhost', name: 'Acme "Paving" & Sons' }]);
    expect(parsed.replyTo?.value[0]?.address).toBe('owner@acme.test');
    expect(parsed.messageId).toBe(first.message_id);
    expect(parsed.text).toContain('Name: Dana <b>Doe</b>');
    expect(parsed.text).not.toContain('Phone');
    expect(parsed.html).toContain('Dana &lt;b&gt;Doe&lt;/b&gt;');
    expect(parsed.html).toContain('&lt;script&gt;');
    expect(parsed.html).not.toContain('<script>');
  });

  it('answers 404 for names that are not outbox messages, and never reads outside the folder', async () => {
    for (const name of ['nope.eml', '..%2F..%2Fetc%2Fpasswd', '20260101T000000000Z-0000000g.eml']) {
      const res = await t.admin.get(`/admin/v1/outbox/${name}`);
      expect(res.status, name).toBe(404);
    }
    expect((await t.admin.get('/admin/v1/outbox?limit=0')).status).toBe(400);
    expect((await t.admin.get('/admin/v1/outbox?limit=1')).body.data).toHaveLength(1);
    expect((await t.anon.get('/admin/v1/outbox')).status).toBe(401);
    expect((await t.anon.get('/admin/v1/mail')).status).toBe(401);
  });

  it('lists the queue with counts and answers 400 for an unknown status', async () => {
    const res = await t.admin.get('/admin/v1/mail');
    expect(res.status).toBe(200);
    expect(res.body.data.counts).toMatchObject({ sent: 2, queued: 0, failed: 0 });
    expect(res.body.data.messages[0]).toMatchObject({ kind: 'lead_alert', status: 'sent', attempts: 1 });
    expect(res.body.data.messages[0].sent_at).toMatch(/Z$/);
    expect((await t.admin.get('/admin/v1/mail?status=bounced')).status).toBe(400);
    expect((await t.admin.post('/admin/v1/mail/999999/retry', {})).status).toBe(404);
  });

  it('is read by `groundwork admin outbox` and the queue by `groundwork admin mail list`', async () => {
    const listed = await json('outbox');
    expect(listed).toHaveLength(2);
    const shown = await admin('outbox', listed[0].name);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(shown.out).toContain(`Message-ID: ${listed[0].message_id}`);
    const missing = await admin('outbox', 'missing.eml');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('404');

    // The queue lives in the database the CLI opens.
    const database = openDatabase(path.join(dir, 'cli.sqlite'));
    await migrateToLatest(database);
    const firm = await database.db
      .insertInto('firms')
      .values({
        name: 'CLI firm',
        plan: 'gold',
        subscription_status: 'active',
        timezone: 'UTC',
        settings: '{}',
        job_types: '[]',
        divisions: '[]',
        owner_user_id: null,
        next_job_number: 1,
        created_at: '2026-01-01T00:00:00.000000',
        updated_at: '2026-01-01T00:00:00.000000',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await inTransaction(database, (trx) => queueMail(trx, t.env.deps.mail, { ...alert(3), firmId: firm.id }));
    await database.close();
    const queued = await json('mail', 'list', '--status', 'queued');
    expect(queued.counts.queued).toBe(1);
    expect(queued.messages[0]).toMatchObject({ kind: 'lead_alert', to_address: 'sam3@acme.test', status: 'queued' });
    const bad = await admin('mail', 'retry', String(queued.messages[0].id));
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('409');
  });
});
