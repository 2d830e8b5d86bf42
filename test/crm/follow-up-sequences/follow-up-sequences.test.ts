// Follow-up sequences (document 2, Follow-up sequence; docs/api-decisions.md, Follow-up sequences):
// the workspace's settings (GET/PUT /v1/follow-up-sequence-settings, owner only), a job's sequence
// (GET, start with its 400s and started_now, stop owner only with steps_closed), the customer
// company's skip flag, and the worker driven by an injected clock: each step on its day (an email
// to the customer, a follow-up for the salesperson), stopping when the job is won or lost, when the
// customer replies in the portal (when so configured), and finishing after the last step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { advanceClock } from '#platform/time.ts';
import { contributions } from '#src/area.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job, logOf, ok, Z_SECONDS } from '#test/helpers/records.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const clock = new ManualClock(Date.now());
let t: TestApp;
beforeAll(async () => {
  t = await startApp({ clock });
});
afterAll(() => t.close());

const SETTINGS = '/v1/follow-up-sequence-settings';
const seq = (jobId: number, action = '') => `/v1/jobs/${jobId}/follow-up-sequence${action}`;

const STEPS = [
  {
    day: 0,
    kind: 'email',
    subject: 'Your estimate for {{job_name}}',
    body: 'Hi {{customer_name}},\n\nThanks for considering {{workspace_name}}.',
  },
  { day: 2, kind: 'task', title: 'Call {{customer_name}} about {{job_name}}' },
  {
    day: 5,
    kind: 'email',
    subject: 'Still thinking it over?',
    body: 'Hi {{customer_name}}, {{salesperson_name}} here.',
  },
];

/** Runs the worker's sequence task until it finds nothing due (as the worker loop would). */
async function sweep(): Promise<number> {
  const task = contributions()
    .workerTasks(t.env, { leaseMs: 60_000 })
    .find((k) => k.name === 'follow-up-sequences')!;
  let total = 0;
  for (let n = await task.sweep(); n > 0; n = await task.sweep()) total += n;
  return total;
}

async function sequenceWorkspace(steps: unknown[] = STEPS, extra: Record<string, unknown> = {}) {
  const w = await t.workspace({ name: 'Blacktop Bros' });
  await ok(w.api.raw.put(SETTINGS, { enabled: true, steps, ...extra }));
  return w;
}

const mailsOf = (jobId: number) =>
  t.database.db.selectFrom('outgoing_mail').selectAll().where('ref', '=', `job:${jobId}`).orderBy('id').execute();

const customerJob = (w: Workspace, body: Record<string, unknown> = {}) =>
  job(w, {
    name: 'Oak St lot',
    contact_name: 'Dana Reyes',
    contact_email: 'dana@example.com',
    allow_duplicate_name: true,
    ...body,
  });

/** Moves the worker's clock and the API's clock on together, so a sequence started now is due by the worker's. */
function later(ms: number): void {
  clock.advance(ms);
  advanceClock(ms);
}

describe('GET/PUT /v1/follow-up-sequence-settings', () => {
  it('starts off with no steps; the owner saves steps ordered by day; fields not sent stay', async () => {
    const w = await t.workspace();
    expect(await ok(w.api.get(SETTINGS))).toEqual({
      data: {
        enabled: false,
        stop_on_customer_reply: true,
        steps: [],
        placeholders: [
          '{{customer_name}}',
          '{{job_name}}',
          '{{job_address}}',
          '{{workspace_name}}',
          '{{salesperson_name}}',
        ],
        updated_at: null,
      },
    });
    const saved = await ok(w.api.raw.put(SETTINGS, { enabled: true, steps: [STEPS[2], STEPS[0], STEPS[1]] }));
    expect(saved.data).toMatchObject({ enabled: true, stop_on_customer_reply: true });
    expect(saved.data.updated_at).toMatch(Z_SECONDS);
    expect(saved.data.steps).toEqual([
      { day: 0, kind: 'email', subject: STEPS[0]!.subject, body: STEPS[0]!.body, title: null },
      { day: 2, kind: 'task', subject: null, body: null, title: STEPS[1]!.title },
      { day: 5, kind: 'email', subject: STEPS[2]!.subject, body: STEPS[2]!.body, title: null },
    ]);
    const off = await ok(w.api.put(SETTINGS, { stop_on_customer_reply: false }));
    expect(off.data).toMatchObject({ enabled: true, stop_on_customer_reply: false, steps: saved.data.steps });
    expect((await ok(w.api.get(SETTINGS))).data).toEqual(off.data);
  });

  it('refuses a step without its fields, unknown placeholders, on without steps, unknown fields (400); a non-owner (403)', async () => {
    const w = await t.workspace();
    const bad = async (body: unknown, error: RegExp | string) => {
      const res = await w.api.raw.put(SETTINGS, body);
      expect(res.status).toBe(400);
      if (typeof error === 'string') expect(res.body.error).toBe(error);
      else expect(res.body.error).toMatch(error);
    };
    await bad({ steps: [{ day: 1, kind: 'email', body: 'x' }] }, 'Step 1 (day 1): an email step needs a subject');
    await bad({ steps: [{ day: 1, kind: 'email', subject: 'x' }] }, 'Step 1 (day 1): an email step needs a body');
    await bad({ steps: [{ day: 1, kind: 'task' }] }, 'Step 1 (day 1): a task step needs a title');
    await bad(
      { steps: [{ day: 1, kind: 'task', title: 'x', subject: 'y' }] },
      'Step 1 (day 1): subject is for email steps',
    );
    await bad(
      { steps: [{ day: 1, kind: 'email', subject: 'Hi {{first_name}}', body: 'x' }] },
      'Unknown placeholders: {{first_name}}',
    );
    await bad({ enabled: true }, 'Add at least one step to turn the sequence on');
    await bad({ steps: [{ day: -1, kind: 'task', title: 'x' }] }, /day/);
    await bad({ steps: [{ day: 1, kind: 'sms', title: 'x' }] }, /kind/);
    await bad({ steps: [{ day: 1, kind: 'task', title: 'x', color: 'red' }] }, /color/);
    await bad({ steps: Array.from({ length: 21 }, () => ({ day: 1, kind: 'task', title: 'x' })) }, /steps/);
    await bad({ schedule: 'weekly' }, /schedule/);
    const member = await t.user(w.firmId, { role: 'member' });
    const res = await member.api.put(SETTINGS, { stop_on_customer_reply: false });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'key creator is not an owner', code: 'not_owner' });
    expect((await ok(member.api.get(SETTINGS))).data.enabled).toBe(false);
    const reader = await t.user(w.firmId, {}, ['read_jobs']);
    expect((await reader.api.put(SETTINGS, {})).status).toBe(403);
  });
});

describe("a job's follow-up sequence", () => {
  it("shows the sequence's steps while not running; start answers started_now, then false; the open steps show", async () => {
    const w = await sequenceWorkspace();
    const j = await customerJob(w);
    const idle = await ok(w.api.get(seq(j.id)));
    expect(idle).toEqual({
      data: {
        job_id: j.id,
        sequence_enabled: true,
        running: false,
        steps: [
          {
            day: 0,
            kind: 'email',
            subject: STEPS[0]!.subject,
            body: STEPS[0]!.body,
            title: null,
            due_at: null,
            status: null,
          },
          { day: 2, kind: 'task', subject: null, body: null, title: STEPS[1]!.title, due_at: null, status: null },
          {
            day: 5,
            kind: 'email',
            subject: STEPS[2]!.subject,
            body: STEPS[2]!.body,
            title: null,
            due_at: null,
            status: null,
          },
        ],
        through_day: 5,
      },
    });
    const started = await w.api.post(seq(j.id, '/start'), {});
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({
      job_id: j.id,
      sequence_enabled: true,
      running: true,
      started_now: true,
      through_day: 5,
    });
    expect(started.body.data.steps).toHaveLength(3);
    expect(started.body.data.steps.map((s: any) => s.status)).toEqual(['open', 'open', 'open']);
    const [d0, d2, d5] = started.body.data.steps.map((s: any) => Date.parse(s.due_at));
    expect(d2! - d0!).toBeGreaterThanOrEqual(2 * DAY_MS - 1000);
    expect(d5! - d0!).toBeGreaterThanOrEqual(5 * DAY_MS - 1000);
    const again = await ok(w.api.post(seq(j.id, '/start'), {}));
    expect(again.data.started_now).toBe(false);
    const { started_now: _, ...running } = started.body.data;
    expect(await ok(w.api.get(seq(j.id)))).toEqual({ data: running });
    await ok(w.api.post(seq(j.id, '/stop'), {}));
  });

  it('start is 400 when the workspace has no sequence on, when the customer skips follow-ups, and without a customer email', async () => {
    const none = await t.workspace();
    const j0 = await customerJob(none);
    const res = await none.api.post(seq(j0.id, '/start'), {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'sequence not enabled or customer skips follow-ups',
      code: 'sequence_not_enabled',
    });
    expect((await ok(none.api.get(seq(j0.id)))).data).toEqual({
      job_id: j0.id,
      sequence_enabled: false,
      running: false,
      steps: [],
      through_day: null,
    });

    const w = await sequenceWorkspace();
    const skipper = await account(w, 'No Thanks LLC', { skip_automatic_follow_ups: true });
    expect(skipper.skip_automatic_follow_ups).toBe(true);
    const j1 = await customerJob(w, { client_account_id: skipper.id });
    const skip = await w.api.post(seq(j1.id, '/start'), {});
    expect(skip.status).toBe(400);
    expect(skip.body).toMatchObject({
      error: 'sequence not enabled or customer skips follow-ups',
      code: 'customer_skips_follow_ups',
    });
    // The flag is set and cleared through the customer's update.
    const cleared = await ok(w.api.patch(`/v1/client-accounts/${skipper.id}`, { skip_automatic_follow_ups: false }));
    expect(cleared.data.skip_automatic_follow_ups).toBe(false);
    expect((await ok(w.api.post(seq(j1.id, '/start'), {}))).data.started_now).toBe(true);
    // An upsert that matches the customer by name sets the flag when it is sent, and keeps it when not.
    const matched = await w.api.post('/v1/client-accounts', { name: 'No Thanks LLC', skip_automatic_follow_ups: true });
    expect(matched.status).toBe(200);
    expect(matched.body).toMatchObject({ created: false, data: { id: skipper.id, skip_automatic_follow_ups: true } });
    const kept = await ok(w.api.post('/v1/client-accounts', { name: 'No Thanks LLC', phone: '555-010-0199' }));
    expect(kept.data.skip_automatic_follow_ups).toBe(true);
    expect(
      (await w.api.raw.patch(`/v1/client-accounts/${skipper.id}`, { skip_automatic_follow_ups: 'yes' })).status,
    ).toBe(400);

    const noEmail = await job(w, { name: 'No email' });
    const missing = await w.api.post(seq(noEmail.id, '/start'), {});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('no_customer_email');
    // Turned off again: start is 400 once more.
    await ok(w.api.put(SETTINGS, { enabled: false }));
    const j2 = await customerJob(w);
    expect((await w.api.post(seq(j2.id, '/start'), {})).body.code).toBe('sequence_not_enabled');
  });

  it('stop is for owners (403 key creator is not an owner); it closes the open steps and no email goes after', async () => {
    const w = await sequenceWorkspace();
    const j = await customerJob(w);
    await ok(w.api.post(seq(j.id, '/start'), {}));
    const member = await t.user(w.firmId, { role: 'member' });
    const refused = await member.api.post(seq(j.id, '/stop'), {});
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'key creator is not an owner', code: 'not_owner' });
    const stopped = await ok(w.api.post(seq(j.id, '/stop'), {}));
    expect(stopped.data).toMatchObject({ job_id: j.id, running: false, steps_closed: 3 });
    expect(stopped.data.steps).toHaveLength(3);
    expect((await ok(w.api.post(seq(j.id, '/stop'), {}))).data.steps_closed).toBe(0);
    later(10 * DAY_MS);
    await sweep();
    expect(await mailsOf(j.id)).toEqual([]);
  });

  it("is 404 for another workspace's job on every route; a read-only key cannot start or stop", async () => {
    const w = await sequenceWorkspace();
    const other = await sequenceWorkspace();
    const j = await customerJob(w);
    for (const id of [j.id, 99999999]) {
      expect((await other.api.get(seq(id))).status).toBe(404);
      for (const action of ['/start', '/stop']) {
        const res = await other.api.post(seq(id, action), {});
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('Job not found');
      }
    }
    const reader = await t.user(w.firmId, {}, ['read_jobs']);
    expect((await reader.api.post(seq(j.id, '/start'), {})).status).toBe(403);
    expect((await reader.api.post(seq(j.id, '/stop'), {})).status).toBe(403);
    expect((await reader.api.get(seq(j.id))).status).toBe(200);
  });
});

describe('the worker', () => {
  it('sends each email on its day, makes the follow-up for the salesperson, and finishes after the last step', async () => {
    const w = await sequenceWorkspace();
    const sales = await t.user(w.firmId, { name: 'Sam Sales', email: 'sam@blacktop.test' });
    const j = await customerJob(w, { assigned_to_user_id: sales.id });
    await ok(w.api.post(seq(j.id, '/start'), {}));
    later(60_000);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    let mails = await mailsOf(j.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'sequence_step',
      to_address: 'dana@example.com',
      from_name: 'Blacktop Bros',
      reply_to: 'sam@blacktop.test',
      subject: 'Your estimate for Oak St lot',
      status: 'queued',
    });
    expect(mails[0]!.text_body).toContain('Hi Dana Reyes,\n\nThanks for considering Blacktop Bros.');
    expect(mails[0]!.text_body).toContain('Sent by Blacktop Bros.');
    expect((await ok(w.api.get(seq(j.id)))).data.steps.map((s: any) => s.day)).toEqual([2, 5]);

    later(1 * DAY_MS);
    await sweep();
    expect(await mailsOf(j.id)).toHaveLength(1);
    expect((await ok(w.api.get(`/v1/tasks?job_id=${j.id}&status=all`))).data).toEqual([]);

    later(1 * DAY_MS);
    await sweep();
    const tasks = (await ok(w.api.get(`/v1/tasks?job_id=${j.id}&status=all`))).data;
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      title: 'Call Dana Reyes about Oak St lot',
      task_type: 'follow_up',
      assigned_to_user_id: sales.id,
      status: 'open',
    });

    later(3 * DAY_MS);
    await sweep();
    mails = await mailsOf(j.id);
    expect(mails).toHaveLength(2);
    expect(mails[1]).toMatchObject({ subject: 'Still thinking it over?' });
    expect(mails[1]!.text_body).toContain('Hi Dana Reyes, Sam Sales here.');
    const finished = (await ok(w.api.get(seq(j.id)))).data;
    expect(finished.running).toBe(false);
    // Finished: it can be started again, as a new run.
    expect((await ok(w.api.post(seq(j.id, '/start'), {}))).data.started_now).toBe(true);
    await ok(w.api.post(seq(j.id, '/stop'), {}));
  });

  it('a running sequence stops when the job is won or lost', async () => {
    const w = await sequenceWorkspace();
    for (const status of ['won', 'lost']) {
      const j = await customerJob(w, { name: `Decided ${status}` });
      await ok(w.api.post(seq(j.id, '/start'), {}));
      await ok(w.api.post(`/v1/jobs/${j.id}/move`, { status: 'active' }));
      expect((await ok(w.api.get(seq(j.id)))).data.running).toBe(true);
      await ok(w.api.post(`/v1/jobs/${j.id}/move`, { status }));
      expect((await ok(w.api.get(seq(j.id)))).data.running).toBe(false);
      later(10 * DAY_MS);
      await sweep();
      expect(await mailsOf(j.id)).toEqual([]);
    }
  });

  it("stops when the customer replies in the portal, unless the settings say replies don't stop it", async () => {
    for (const stops of [true, false]) {
      const w = await sequenceWorkspace(STEPS, { stop_on_customer_reply: stops });
      await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { customer_portal_enabled: true } }));
      const c = await account(w, 'Replying Co');
      const j = await customerJob(w, { client_account_id: c.id });
      await ok(w.api.post(seq(j.id, '/start'), {}));
      const url = (await ok(w.api.post(`/v1/client-accounts/${c.id}/portal-link`, {}))).data.portal_url;
      const res = await t.app.inject({
        method: 'POST',
        url: `${new URL(url!).pathname}/jobs/${j.id}/messages`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'body=Yes%2C+let%27s+talk',
      });
      expect(res.statusCode).toBe(303);
      expect((await ok(w.api.get(seq(j.id)))).data.running).toBe(!stops);
      // A staff message never stops it.
      if (!stops) {
        await ok(w.api.post(`/v1/jobs/${j.id}/portal-messages`, { body: 'Great' }));
        expect((await ok(w.api.get(seq(j.id)))).data.running).toBe(true);
        await ok(w.api.post(seq(j.id, '/stop'), {}));
      }
    }
  });

  it('stops instead of mailing when the customer company has since chosen to skip follow-ups', async () => {
    const w = await sequenceWorkspace();
    const c = await account(w, 'Changed Mind Co');
    const j = await customerJob(w, { client_account_id: c.id });
    await ok(w.api.post(seq(j.id, '/start'), {}));
    await ok(w.api.patch(`/v1/client-accounts/${c.id}`, { skip_automatic_follow_ups: true }));
    later(60_000);
    await sweep();
    expect(await mailsOf(j.id)).toEqual([]);
    expect((await ok(w.api.get(seq(j.id)))).data.running).toBe(false);
  });

  it('a deleted job takes its sequence with it; a merged-away job stops its own', async () => {
    const w = await sequenceWorkspace();
    const gone = await customerJob(w, { name: 'To delete' });
    await ok(w.api.post(seq(gone.id, '/start'), {}));
    expect((await w.api.delete(`/v1/jobs/${gone.id}`)).status).toBe(204);
    const away = await customerJob(w, { name: 'Away job' });
    const keep = await customerJob(w, { name: 'Kept job' });
    await ok(w.api.post(seq(away.id, '/start'), {}));
    await ok(w.api.post(`/v1/jobs/${away.id}/portal-messages`, { body: 'Carried over' }));
    await ok(w.api.post(`/v1/jobs/${away.id}/review-request`, {}));
    await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: keep.id }));
    expect((await ok(w.api.get(seq(keep.id)))).data.running).toBe(false);
    expect((await ok(w.api.get(`/v1/jobs/${keep.id}/portal-messages`))).data.map((m: any) => m.body)).toEqual([
      'Carried over',
    ]);
    expect((await ok(w.api.get(`/v1/reviews?job_id=${keep.id}`))).data).toHaveLength(1);
    later(10 * DAY_MS);
    await sweep();
    expect(await mailsOf(keep.id)).toEqual([]);
  });
});

describe("the job's activity log", () => {
  it('records the sequence starting and stopping, staff and customer messages, and review links', async () => {
    const w = await sequenceWorkspace();
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { customer_portal_enabled: true } }));
    const c = await account(w, 'Logged Co');
    const j = await customerJob(w, { client_account_id: c.id });
    await ok(w.api.post(seq(j.id, '/start'), {}));
    await ok(w.api.post(`/v1/jobs/${j.id}/portal-messages`, { body: 'Hello from the office' }));
    await ok(w.api.post(`/v1/jobs/${j.id}/review-request`, {}));
    const url = (await ok(w.api.post(`/v1/client-accounts/${c.id}/portal-link`, {}))).data.portal_url;
    await t.app.inject({
      method: 'POST',
      url: `${new URL(url!).pathname}/jobs/${j.id}/messages`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'body=Thanks',
    });
    const log = (await logOf(w, j.id)).map((e) => [e.kind, e.summary]);
    expect(log).toEqual(
      expect.arrayContaining([
        ['follow_up_sequence_started', 'Follow-up sequence started (3 steps)'],
        ['portal_message_posted', 'Portal message posted to the customer'],
        ['review_requested', 'Review link made for Dana Reyes'],
        ['portal_message_posted', 'Logged Co replied in the portal'],
        ['follow_up_sequence_stopped', 'Follow-up sequence stopped: the customer replied'],
      ]),
    );
  });
});

describe('starting twice at once', () => {
  it('runs one sequence: one start answers started_now true, the other false', async () => {
    const w = await sequenceWorkspace();
    const j = await customerJob(w);
    const answers = await Promise.all([1, 2, 3].map(() => w.api.post(seq(j.id, '/start'), {})));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.body.data.started_now).sort()).toEqual([false, false, true]);
    const runs = await t.database.db
      .selectFrom('job_follow_up_sequences')
      .select('id')
      .where('job_id', '=', j.id)
      .execute();
    expect(runs).toHaveLength(1);
    await ok(w.api.post(seq(j.id, '/stop'), {}));
  });
});

describe('a salesperson who left', () => {
  it("hands the follow-up to the workspace's owner and mail answers go to the owner", async () => {
    const w = await sequenceWorkspace([
      { day: 0, kind: 'task', title: 'Call {{customer_name}}' },
      { day: 1, kind: 'email', subject: 'Hello', body: 'Hi {{customer_name}}, {{salesperson_name}} here' },
    ]);
    const leaving = await t.user(w.firmId, { name: 'Lee Leaving', email: 'lee@blacktop.test' });
    const j = await customerJob(w, { assigned_to_user_id: leaving.id });
    await ok(w.api.post(seq(j.id, '/start'), {}));
    expect((await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${leaving.id}`)).status).toBeLessThan(300);
    later(DAY_MS + 60_000);
    await sweep();
    const tasks = (await ok(w.api.get(`/v1/tasks?job_id=${j.id}&status=all`))).data;
    expect(tasks.map((x: any) => x.assigned_to_user_id)).toEqual([w.ownerId]);
    const [mail] = await mailsOf(j.id);
    const owner = await t.database.db
      .selectFrom('users')
      .select(['name', 'email'])
      .where('id', '=', w.ownerId)
      .executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ reply_to: owner.email });
    expect(mail!.text_body).toContain(`${owner.name} here`);
  });
});
