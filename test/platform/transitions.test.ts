// Every state transition takes effect once (issue 24). Each route below is fired 16 times at once
// at one record (Promise.all through app.inject: on PostgreSQL the calls run on the pool's
// connections at the same time) and must end exactly as ONE call ends on a twin record:
// - the answers: one success and 15 of the spec's refusal (`wins`), or 16 identical answers (`same`,
//   where the spec answers a repeat as the record as it is);
// - the database: every table grows by what one call adds (one event, one note, one activity line,
//   one version, one payment…), counted table by table;
// - the record: the fields that say its state (`state`) read as the twin's (one move, not 16).
//
// The list is the transitions of the three documents' state tables that have a route, and the
// routes that move a record between states the spec names without a table (archive and restore,
// links turned on, off and rotated, sequences started and stopped, webhooks turned off).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

const N = 16;

/** The call a transition makes on a record, and where the record is read. */
interface Call {
  path: string;
  body?: unknown;
  /** The read that shows the record's state afterwards. */
  read: string;
}

type Answers =
  /** Every call answers alike: the spec answers a repeat with the record as it is. */
  | { same: number }
  /**
   * Every call succeeds with `status`: the spec lets a repeat act again without a second
   * transition (a re-send mails the link again and records when), so only the state moves once.
   */
  | { all: number }
  /** One call succeeds (`wins`, as `say` puts it); the others get the spec's refusal (`losers`). */
  | { wins: string; losers: string };

interface Transition {
  route: string;
  /** The spec's words for it. */
  what: string;
  /** Makes a record in the state the transition leaves and says how to call it. */
  make(w: Workspace): Promise<Call>;
  answers: Answers;
  /** The fields of the read that say the record's state (default its status). */
  state?: (read: any) => unknown;
  /** How an answer is put for `wins` and `losers` (default: status and error). */
  say?: (answer: { status: number; body: any }) => string;
}

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({
    settings: {
      operations_enabled: true,
      crew_scheduling_enabled: true,
      customer_portal_enabled: true,
      capital_planning_enabled: true,
    },
  });
  // The follow-up sequence the sequence cases start and stop (proposal sends here do not start it).
  await ok(
    w.api.put('/v1/follow-up-sequence-settings', {
      enabled: true,
      steps: [{ day: 3, kind: 'email', subject: 'About {{job_name}}', body: 'Hi {{customer_name}}' }],
    }),
  );
});
afterAll(() => t.close());

let serial = 0;
const next = () => ++serial;

const data = async (p: Promise<{ status: number; body: any }>) => (await ok(p)).data;
const job = (body: Record<string, unknown> = {}) => data(w.api.post('/v1/jobs', { name: `Job ${next()}`, ...body }));
const customer = () => data(w.api.post('/v1/client-accounts', { name: `Customer ${next()}` }));

async function reminder(body: Record<string, unknown> = {}) {
  const j = await job();
  return data(w.api.post('/v1/reminders', { title: 'Renewal', due: '2030-05-01', job_id: j.id, ...body }));
}

async function lead(body: Record<string, unknown> = {}) {
  const n = next();
  return data(
    w.api.post('/v1/leads', {
      name: `Lead ${n}`,
      email: `lead${n}@l.test`,
      company: `Lead Co ${n}`,
      address: `${n} Lead Lane`,
      notify: false,
      ...body,
    }),
  );
}

const TRANSITIONS: Transition[] = [
  // ---- Document 2, Reminder
  {
    route: 'POST /v1/reminders/{reminder_id}/complete',
    what: 'one-off: pending → done, the notes logged once; again is 409',
    async make() {
      const r = await reminder();
      return { path: `/v1/reminders/${r.id}/complete`, body: { notes: 'Renewed' }, read: `/v1/reminders/${r.id}` };
    },
    answers: { wins: '200', losers: '409 reminder already done or dismissed' },
  },
  {
    route: 'POST /v1/reminders/{reminder_id}/complete',
    what: 'weekly: stays open for its next round, moved one week, the notes logged once',
    async make() {
      const r = await reminder({ repeat_every: 1, repeat_unit: 'week' });
      return { path: `/v1/reminders/${r.id}/complete`, body: { notes: 'Checked' }, read: `/v1/reminders/${r.id}` };
    },
    answers: { same: 200 },
    state: (r) => [r.data.status, r.data.due_at],
  },
  {
    route: 'POST /v1/reminders/{reminder_id}/dismiss',
    what: 'pending → dismissed; a dismissed one answers as it is',
    async make() {
      const r = await reminder();
      return { path: `/v1/reminders/${r.id}/dismiss`, read: `/v1/reminders/${r.id}` };
    },
    answers: { same: 200 },
  },
  {
    route: 'POST /v1/follow-ups/bulk',
    what: 'done on a one-off reminder: changed once, skipped as finished after',
    async make() {
      const r = await reminder();
      return {
        path: '/v1/follow-ups/bulk',
        body: { action: 'done', reminder_ids: [r.id] },
        read: `/v1/reminders/${r.id}`,
      };
    },
    answers: { wins: '200 changed 1', losers: '200 changed 0' },
    say: (a) => `${a.status} changed ${a.body.data.changed.length}`,
  },
  // ---- Document 2, job and company follow-ups (status open / done)
  {
    route: 'PATCH /v1/tasks/{id}',
    what: 'status done: open → done, logged on the job once; done again answers as it is',
    async make() {
      const j = await job();
      const task = await data(w.api.post('/v1/tasks', { job_id: j.id, title: 'Call' }));
      return { path: `/v1/tasks/${task.id}`, body: { status: 'done' }, read: `/v1/tasks/${task.id}` };
    },
    answers: { same: 200 },
  },
  {
    route: 'PATCH /v1/tasks/{id}',
    what: 'status open: done → open, logged on the job once',
    async make() {
      const j = await job();
      const task = await data(w.api.post('/v1/tasks', { job_id: j.id, title: 'Call' }));
      await ok(w.api.patch(`/v1/tasks/${task.id}`, { status: 'done' }));
      return { path: `/v1/tasks/${task.id}`, body: { status: 'open' }, read: `/v1/tasks/${task.id}` };
    },
    answers: { same: 200 },
  },
  {
    route: 'PATCH /v1/account-tasks/{id}',
    what: 'status done on a weekly follow-up: moved to its next round once',
    async make() {
      const c = await customer();
      const task = await data(
        w.api.post('/v1/account-tasks', { client_account_id: c.id, due_date: '2030-05-01', repeat: 'weekly' }),
      );
      return { path: `/v1/account-tasks/${task.id}`, body: { status: 'done' }, read: `/v1/account-tasks/${task.id}` };
    },
    answers: { same: 200 },
    state: (r) => [r.data.status, r.data.due_at],
  },
  {
    route: 'PATCH /v1/account-tasks/{id}',
    what: "status done on a lead's Call new lead follow-up: done, the lead contacted once",
    async make() {
      const l = await lead();
      return {
        path: `/v1/account-tasks/${l.follow_up_task_id}`,
        body: { status: 'done' },
        read: `/v1/leads/${l.id}`,
      };
    },
    answers: { same: 200 },
  },
  {
    route: 'PATCH /v1/account-tasks/{id}',
    what: 'status open: done → open once',
    async make() {
      const c = await customer();
      const task = await data(w.api.post('/v1/account-tasks', { client_account_id: c.id }));
      await ok(w.api.patch(`/v1/account-tasks/${task.id}`, { status: 'done' }));
      return { path: `/v1/account-tasks/${task.id}`, body: { status: 'open' }, read: `/v1/account-tasks/${task.id}` };
    },
    answers: { same: 200 },
  },
  // ---- Document 2, Lead
  {
    route: 'POST /v1/leads/{id}/contacted',
    what: 'new → contacted, the outreach noted on the person once',
    async make() {
      const l = await lead();
      return { path: `/v1/leads/${l.id}/contacted`, body: { how: 'call' }, read: `/v1/leads/${l.id}` };
    },
    answers: { same: 200 },
  },
  {
    route: 'POST /v1/leads/{id}/convert',
    what: 'new → converted, its job moved once; again is 409 lead_closed',
    async make() {
      const l = await lead();
      return { path: `/v1/leads/${l.id}/convert`, body: {}, read: `/v1/leads/${l.id}` };
    },
    answers: { wins: '200', losers: '409 Lead closed' },
  },
  {
    route: 'POST /v1/leads/{id}/dismiss',
    what: 'new → spam, what it created archived once; again is 409 lead_closed',
    async make() {
      const l = await lead();
      return { path: `/v1/leads/${l.id}/dismiss`, body: { spam: true }, read: `/v1/leads/${l.id}` };
    },
    answers: { wins: '200', losers: '409 Lead closed' },
  },
  {
    route: 'POST /v1/leads/{id}/restore',
    what: 'dismissed → new, the follow-up reopened once; again is 409',
    async make() {
      const l = await lead();
      await ok(w.api.post(`/v1/leads/${l.id}/dismiss`, {}));
      return { path: `/v1/leads/${l.id}/restore`, body: {}, read: `/v1/leads/${l.id}` };
    },
    answers: { wins: '200', losers: '409 Lead is not dismissed' },
  },
  // ---- Document 2, Job pipeline
  {
    route: 'POST /v1/jobs/{id}/move',
    what: 'lead → won: job_status_changed and job_won once; moving to the stage it is in changes nothing',
    async make() {
      const j = await job();
      return { path: `/v1/jobs/${j.id}/move`, body: { status: 'won' }, read: `/v1/jobs/${j.id}` };
    },
    answers: { same: 200 },
  },
  // ---- Document 2, Follow-up sequence: not running → running → stopped
  {
    route: 'POST /v1/jobs/{id}/follow-up-sequence/start',
    what: 'not running → running, its steps made once; started_now true for one call',
    async make() {
      const c = await customer();
      const j = await job({ client_account_id: c.id, contact_email: 'pat@customer.test' });
      return { path: `/v1/jobs/${j.id}/follow-up-sequence/start`, read: `/v1/jobs/${j.id}/follow-up-sequence` };
    },
    answers: { wins: '200 started_now true', losers: '200 started_now false' },
    say: (a) => `${a.status} started_now ${a.body.data?.started_now}`,
    state: (r) => [r.data.running, r.data.steps.length],
  },
  {
    route: 'POST /v1/jobs/{id}/follow-up-sequence/stop',
    what: 'running → stopped, its steps closed once',
    async make() {
      const c = await customer();
      const j = await job({ client_account_id: c.id, contact_email: 'pat@customer.test' });
      await ok(w.api.post(`/v1/jobs/${j.id}/follow-up-sequence/start`, {}));
      return { path: `/v1/jobs/${j.id}/follow-up-sequence/stop`, read: `/v1/jobs/${j.id}/follow-up-sequence` };
    },
    answers: { wins: '200 steps_closed 1', losers: '200 steps_closed 0' },
    say: (a) => `${a.status} steps_closed ${a.body.data?.steps_closed}`,
    state: (r) => r.data.running,
  },
  // ---- Document 2, customer portal link and records archived and restored
  {
    route: 'POST /v1/client-accounts/{id}/portal-link',
    what: 'off → on: one link made (201), the others answer it (200)',
    async make() {
      const c = await customer();
      return { path: `/v1/client-accounts/${c.id}/portal-link`, read: `/v1/client-accounts/${c.id}/portal-link` };
    },
    answers: { wins: '201', losers: '200' },
    state: (r) => r.data.enabled,
  },
  {
    route: 'POST /v1/client-accounts/{id}/portal-link/disable',
    what: 'on → off',
    async make() {
      const c = await customer();
      await ok(w.api.post(`/v1/client-accounts/${c.id}/portal-link`, {}));
      return {
        path: `/v1/client-accounts/${c.id}/portal-link/disable`,
        read: `/v1/client-accounts/${c.id}/portal-link`,
      };
    },
    answers: { same: 200 },
    state: (r) => r.data.enabled,
  },
  {
    route: 'PATCH /v1/client-accounts/{id}',
    what: 'archived true: archived once, a repeat answers it as it is',
    async make() {
      const c = await customer();
      return { path: `/v1/client-accounts/${c.id}`, body: { archived: true }, read: `/v1/client-accounts/${c.id}` };
    },
    answers: { same: 200 },
    state: (r) => r.data.archived_at !== null,
  },
  {
    route: 'DELETE /v1/contacts/{id}',
    what: 'archives once; a second delete is 404 (document 1)',
    async make() {
      const person = await data(w.api.post('/v1/contacts', { name: `Person ${next()}` }));
      return { path: `/v1/contacts/${person.id}`, read: `/v1/contacts/${person.id}` };
    },
    answers: { wins: '204', losers: '404 Contact not found' },
    state: (r) => r.data.archived_at !== null,
  },
  {
    route: 'POST /v1/contacts/{id}/restore',
    what: 'archived → live',
    async make() {
      const person = await data(w.api.post('/v1/contacts', { name: `Person ${next()}` }));
      await w.api.delete(`/v1/contacts/${person.id}`);
      return { path: `/v1/contacts/${person.id}/restore`, read: `/v1/contacts/${person.id}` };
    },
    answers: { same: 200 },
    state: (r) => r.data.archived_at,
  },
  {
    route: 'DELETE /v1/custom-fields/{id}',
    what: 'archives once; a second delete is 404 (document 1)',
    async make() {
      const f = await data(w.api.post('/v1/custom-fields', { entity_type: 'job', label: `Gate ${next()}` }));
      return { path: `/v1/custom-fields/${f.id}`, read: `/v1/custom-fields?include_archived=true` };
    },
    answers: { wins: '204', losers: '404 Custom field not found' },
    state: (r) => r.data.filter((f: any) => f.archived_at !== null).length,
  },
  {
    route: 'POST /v1/custom-fields/{id}/restore',
    what: 'archived → live, renumbered once',
    async make() {
      const f = await data(w.api.post('/v1/custom-fields', { entity_type: 'contact', label: `Gate ${next()}` }));
      await w.api.delete(`/v1/custom-fields/${f.id}`);
      return { path: `/v1/custom-fields/${f.id}/restore`, read: `/v1/custom-fields?entity_type=contact` };
    },
    answers: { same: 200 },
    state: (r) => r.data.map((f: any) => f.position),
  },
  {
    route: 'POST /v1/contacts/{contact_id}/birthday-reminder',
    what: 'one yearly follow-up made (201), the others answer it (200)',
    async make() {
      const c = await customer();
      const person = await data(
        w.api.post('/v1/contacts', { name: `Person ${next()}`, client_account_id: c.id, birthday: '1980-06-15' }),
      );
      return {
        path: `/v1/contacts/${person.id}/birthday-reminder`,
        read: `/v1/account-tasks?client_account_id=${c.id}`,
      };
    },
    answers: { wins: '201', losers: '200' },
    state: (r) => r.data.length,
  },
  // ---- Document 3, Estimate
  {
    route: 'POST /v1/estimates/{id}/issue',
    what: 'draft → estimate, version 1 frozen and estimate_issued once',
    async make() {
      const e = await estimate();
      return { path: `/v1/estimates/${e.id}/issue`, read: `/v1/estimates/${e.id}` };
    },
    answers: { same: 200 },
    state: (r) => [r.status, r.current_version],
  },
  {
    route: 'POST /v1/estimates/{id}/mark-won',
    what: 'estimate → won, estimate_approved and the award once; again is 409',
    async make() {
      const e = await estimate();
      await ok(w.api.post(`/v1/estimates/${e.id}/issue`, {}));
      return { path: `/v1/estimates/${e.id}/mark-won`, read: `/v1/estimates/${e.id}` };
    },
    answers: { wins: '200', losers: '409 Estimate is won' },
    state: (r) => r.status,
  },
  {
    route: 'POST /v1/estimates/{id}/mark-lost',
    what: 'estimate → lost, estimate_declined once; again is 409',
    async make() {
      const e = await estimate();
      await ok(w.api.post(`/v1/estimates/${e.id}/issue`, {}));
      return { path: `/v1/estimates/${e.id}/mark-lost`, read: `/v1/estimates/${e.id}` };
    },
    answers: { wins: '200', losers: '409 Estimate is lost' },
    state: (r) => r.status,
  },
  {
    route: 'POST /v1/estimates/{id}/reopen',
    what: 'lost → estimate once; again is 409',
    async make() {
      const e = await estimate();
      await ok(w.api.post(`/v1/estimates/${e.id}/issue`, {}));
      await ok(w.api.post(`/v1/estimates/${e.id}/mark-lost`, {}));
      return { path: `/v1/estimates/${e.id}/reopen`, read: `/v1/estimates/${e.id}` };
    },
    answers: { wins: '200', losers: '409 Not allowed while the estimate is estimate' },
    state: (r) => r.status,
  },
  {
    route: 'DELETE /v1/estimates/{id}',
    what: 'archives once; a second delete is 404 (document 1)',
    async make() {
      const e = await estimate();
      return { path: `/v1/estimates/${e.id}`, read: `/v1/estimates/${e.id}` };
    },
    answers: { wins: '200', losers: '404 Estimate not found' },
    state: (r) => r.archived_at !== null,
  },
  {
    route: 'PATCH /v1/estimates/{id}',
    what: 'archived false: archived → live once',
    async make() {
      const e = await estimate();
      await ok(w.api.delete(`/v1/estimates/${e.id}`));
      return { path: `/v1/estimates/${e.id}`, body: { archived: false }, read: `/v1/estimates/${e.id}` };
    },
    answers: { same: 200 },
    state: (r) => r.archived_at,
  },
  {
    route: 'POST /v1/estimates/{id}/proposal',
    what: 'the proposal made once (201); later calls refresh it (200)',
    async make() {
      const e = await estimate();
      return { path: `/v1/estimates/${e.id}/proposal`, read: `/v1/proposals?estimate_id=${e.id}` };
    },
    answers: { wins: '201', losers: '200' },
    state: (r) => r.data.length,
  },
  // ---- Document 3, Proposal
  {
    route: 'POST /v1/proposals/{id}/send',
    what: 'draft → sent, proposal_sent once',
    async make() {
      const m = await proposalOnJob(w, { send: false });
      return {
        path: `/v1/proposals/${m.proposal.id}/send`,
        body: { start_follow_up_sequence: false },
        read: `/v1/proposals/${m.proposal.id}`,
      };
    },
    answers: { all: 200 },
  },
  {
    route: 'POST /v1/proposals/{id}/void',
    what: 'draft → void once; a void one answers as it is',
    async make() {
      const m = await proposalOnJob(w, { send: false });
      return { path: `/v1/proposals/${m.proposal.id}/void`, read: `/v1/proposals/${m.proposal.id}` };
    },
    answers: { same: 200 },
  },
  // ---- Document 3, Invoice (check)
  {
    route: 'POST /v1/invoices/{id}/send',
    what: 'draft → sent, issued once',
    async make() {
      const i = await invoice();
      return { path: `/v1/invoices/${i.id}/send`, read: `/v1/invoices/${i.id}` };
    },
    answers: { all: 200 },
    state: (r) => [r.data.status, r.data.issued_at !== null],
  },
  {
    route: 'POST /v1/invoices/{id}/mark-sent',
    what: 'draft → sent once; again is 409',
    async make() {
      const i = await invoice();
      return { path: `/v1/invoices/${i.id}/mark-sent`, read: `/v1/invoices/${i.id}` };
    },
    answers: { wins: '200', losers: '409 Only a draft or paid invoice can be marked sent' },
  },
  {
    route: 'POST /v1/invoices/{id}/mark-paid',
    what: 'sent → paid, payment_received once; again is 409',
    async make() {
      const i = await invoice();
      await ok(w.api.post(`/v1/invoices/${i.id}/mark-sent`, {}));
      return { path: `/v1/invoices/${i.id}/mark-paid`, read: `/v1/invoices/${i.id}` };
    },
    answers: { wins: '200', losers: '409 Only a sent invoice can be marked paid' },
  },
  {
    route: 'POST /v1/invoices/{id}/void',
    what: 'any → void once; again is 409',
    async make() {
      const i = await invoice();
      return { path: `/v1/invoices/${i.id}/void`, read: `/v1/invoices/${i.id}` };
    },
    answers: { wins: '200', losers: '409 The invoice is already void' },
  },
  {
    route: 'POST /v1/invoices/{id}/mark-draft',
    what: 'paid → draft, leaving the payments list once; again is 409',
    async make() {
      const i = await invoice();
      await ok(w.api.post(`/v1/invoices/${i.id}/mark-sent`, {}));
      await ok(w.api.post(`/v1/invoices/${i.id}/mark-paid`, {}));
      return { path: `/v1/invoices/${i.id}/mark-draft`, read: `/v1/invoices/${i.id}` };
    },
    answers: { wins: '200', losers: '409 The invoice is already a draft' },
  },
  // ---- Document 3, Change order
  {
    route: 'POST /v1/change-orders/{id}/send',
    what: 'draft → sent once',
    async make() {
      const co = await changeOrder();
      return { path: `/v1/change-orders/${co.id}/send`, read: `/v1/change-orders/${co.id}` };
    },
    answers: { all: 200 },
  },
  {
    route: 'POST /v1/change-orders/{id}/approve',
    what: 'sent → approved, change_order_approved once; again is 400',
    async make() {
      const co = await changeOrder();
      await ok(w.api.post(`/v1/change-orders/${co.id}/send`, {}));
      return { path: `/v1/change-orders/${co.id}/approve`, read: `/v1/change-orders/${co.id}` };
    },
    answers: { wins: '200', losers: '400 change order already decided' },
  },
  {
    route: 'POST /v1/change-orders/{id}/decline',
    what: 'sent → declined once; again is 400',
    async make() {
      const co = await changeOrder();
      await ok(w.api.post(`/v1/change-orders/${co.id}/send`, {}));
      return { path: `/v1/change-orders/${co.id}/decline`, read: `/v1/change-orders/${co.id}` };
    },
    answers: { wins: '200', losers: '400 change order already decided' },
  },
  {
    route: 'POST /v1/change-orders/{id}/stage',
    what: 'draft → the approved stage: approved once',
    async make() {
      const co = await changeOrder();
      return {
        path: `/v1/change-orders/${co.id}/stage`,
        body: { stage: 'approved' },
        read: `/v1/change-orders/${co.id}`,
      };
    },
    answers: { wins: '200', losers: '400 change order already decided' },
  },
  {
    route: 'POST /v1/change-orders/{id}/void',
    what: 'draft → void once; again is 409',
    async make() {
      const co = await changeOrder();
      return { path: `/v1/change-orders/${co.id}/void`, read: `/v1/change-orders/${co.id}` };
    },
    answers: { wins: '200', losers: '409 Change order is already void' },
  },
  // ---- Document 3, Assessment
  {
    route: 'POST /v1/site-assessments',
    what: '(none) → open: one open assessment per job (201), the others answer it (200)',
    async make() {
      const j = await job();
      return { path: '/v1/site-assessments', body: { job_id: j.id }, read: `/v1/site-assessments?job_id=${j.id}` };
    },
    answers: { wins: '201', losers: '200' },
    state: (r) => r.data.length,
  },
  {
    route: 'POST /v1/site-assessments/{id}/complete',
    what: 'open → completed, the handoff saved once; completing twice changes nothing',
    async make() {
      const a = await assessment();
      return { path: `/v1/site-assessments/${a.id}/complete`, read: `/v1/site-assessments/${a.id}` };
    },
    answers: { same: 200 },
  },
  {
    route: 'POST /v1/site-assessments/{id}/reopen',
    what: 'completed → open once',
    async make() {
      const a = await assessment();
      await ok(w.api.post(`/v1/site-assessments/${a.id}/complete`, {}));
      return { path: `/v1/site-assessments/${a.id}/reopen`, read: `/v1/site-assessments/${a.id}` };
    },
    answers: { same: 200 },
  },
  // ---- Document 3, links a customer opens: made, turned off, rotated
  {
    route: 'POST /v1/jobs/{job_id}/photo-share-link',
    what: 'one link made (201), the others answer it (200)',
    async make() {
      const j = await job();
      return { path: `/v1/jobs/${j.id}/photo-share-link`, read: `/v1/jobs/${j.id}/photo-share-link` };
    },
    answers: { wins: '201', losers: '200' },
    state: (r) => r.data.enabled,
  },
  {
    route: 'POST /v1/site-assessments/{id}/share-links/{link_id}/revoke',
    what: 'live → revoked once',
    async make() {
      const a = await assessment();
      const link = await data(w.api.post(`/v1/site-assessments/${a.id}/share-link`, {}));
      return {
        path: `/v1/site-assessments/${a.id}/share-links/${link.id}/revoke`,
        read: `/v1/site-assessments/${a.id}/share-links`,
      };
    },
    answers: { same: 200 },
    state: (r) => r.data.map((l: any) => l.revoked_at !== null),
  },
  {
    route: 'POST /v1/locations/{id}/plan-share-link',
    what: 'off → on: one link made (201), the others answer it (200)',
    async make() {
      const l = await data(w.api.post('/v1/locations', { address: `${next()} Plan Rd` }));
      return { path: `/v1/locations/${l.id}/plan-share-link`, read: `/v1/locations/${l.id}/plan-share-link` };
    },
    answers: { wins: '201', losers: '200' },
    state: (r) => r.data.enabled,
  },
  {
    route: 'POST /v1/locations/{id}/plan-share-link/disable',
    what: 'on → off',
    async make() {
      const l = await data(w.api.post('/v1/locations', { address: `${next()} Plan Rd` }));
      await ok(w.api.post(`/v1/locations/${l.id}/plan-share-link`, {}));
      return { path: `/v1/locations/${l.id}/plan-share-link/disable`, read: `/v1/locations/${l.id}/plan-share-link` };
    },
    answers: { same: 200 },
    state: (r) => r.data.enabled,
  },
  // ---- Document 1, webhook subscriptions: active → inactive → active
  {
    route: 'DELETE /v1/webhooks/{id}',
    what: 'active → inactive, pending deliveries abandoned once; history kept',
    async make() {
      const hook = await data(w.api.post('/v1/webhooks', { target_url: `https://h${next()}.example.com/` }));
      return { path: `/v1/webhooks/${hook.id}`, read: '/v1/webhooks' };
    },
    answers: { same: 200 },
    state: (r) => r.data.filter((h: any) => h.active).length >= 0,
  },
  {
    route: 'PATCH /v1/webhooks/{id}',
    what: 'active true: inactive → active',
    async make() {
      const hook = await data(w.api.post('/v1/webhooks', { target_url: `https://h${next()}.example.com/` }));
      await ok(w.api.delete(`/v1/webhooks/${hook.id}`));
      return { path: `/v1/webhooks/${hook.id}`, body: { active: true }, read: '/v1/webhooks' };
    },
    answers: { same: 200 },
    state: () => true,
  },
];

async function estimate() {
  const j = await job({ contact_email: 'pat@customer.test' });
  const e = await data(w.api.post('/v1/estimates', { job_id: j.id }));
  await ok(
    w.api.post(`/v1/estimates/${e.id}/line-items`, { name: 'Sealcoat', unit: 'SF', quantity: 1000, unit_cost: 0.2 }),
  );
  return e;
}

async function invoice() {
  const j = await job();
  return data(
    w.api.post('/v1/invoices', {
      job_id: j.id,
      line_items: [{ description: 'Sealcoat', amount: 1500 }],
      client_email: 'pat@customer.test',
      remit_to_name: 'Acme Paving',
      remit_to_address: '1 Yard Rd',
    }),
  );
}

async function changeOrder() {
  const j = await job({ contact_name: 'Dana', contact_email: 'dana@customer.test' });
  return data(w.api.post('/v1/change-orders', { job_id: j.id, title: 'Extra patching', amount_delta: 450 }));
}

async function assessment() {
  const j = await job();
  return data(w.api.post('/v1/site-assessments', { job_id: j.id }));
}

/**
 * Counters kept one row per key and made on first use (job_counts: a workspace's jobs per stage), so
 * the twin's call may add the row the raced calls then find: their values are checked through the
 * records' reads, not by rows.
 */
const COUNTERS = new Set(['job_counts']);

/** The tables of this test's database (on PostgreSQL its own schema: other files' come and go). */
async function tableNames(): Promise<string[]> {
  const query =
    t.database.schema === undefined
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  const { rows } = await query.execute(t.database.db);
  return rows.map((r) => r.name).filter((name) => !COUNTERS.has(name));
}

/** Rows in every table of the test's database, by table. */
async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of await tableNames()) {
    const row = await t.database.db
      .selectFrom(name as 'events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    out[name] = Number(row.n);
  }
  return out;
}

const grown = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.keys(after)
      .filter((k) => after[k] !== before[k])
      .map((k) => [k, after[k]! - (before[k] ?? 0)]),
  );

const methodOf = (route: string) => route.slice(0, route.indexOf(' '));
const statusAndError = (a: { status: number; body: any }) =>
  a.status < 300 ? String(a.status) : `${a.status} ${a.body?.error}`;

describe(`${N} calls at once take effect once`, () => {
  for (const c of TRANSITIONS) {
    it(`${c.route}: ${c.what}`, async () => {
      const method = methodOf(c.route);
      const call = (x: Call) => w.api.request(method, x.path, x.body ?? (method === 'DELETE' ? undefined : {}));
      const twin = await c.make(w);
      const raced = await c.make(w);
      const before = await rowCounts();
      const one = await call(twin);
      const middle = await rowCounts();
      const answers = await Promise.all(Array.from({ length: N }, () => call(raced)));
      const after = await rowCounts();

      expect(one.status, JSON.stringify(one.body)).toBeLessThan(300);
      const say = c.say ?? statusAndError;
      const said = answers.map(say);
      if ('all' in c.answers) {
        expect(said).toEqual(Array(N).fill(String(c.answers.all)));
      } else if ('same' in c.answers) {
        expect(said).toEqual(Array(N).fill(String(c.answers.same)));
        expect(
          new Set(answers.map((a) => JSON.stringify(a.body))).size,
          `identical answers: ${[...new Set(answers.map((a) => JSON.stringify(a.body)))].join('\n')}`,
        ).toBe(1);
      } else {
        expect(say(one)).toBe(c.answers.wins);
        const { wins, losers } = c.answers;
        expect(said.filter((s) => s === wins).length, said.join(', ')).toBe(1);
        expect(said.filter((s) => s === losers).length, said.join(', ')).toBe(N - 1);
      }
      expect(grown(middle, after), 'rows the 16 calls added').toEqual(grown(before, middle));
      const state = c.state ?? ((r: any) => r.data?.status ?? r.status);
      const read = async (x: Call) => state((await ok(w.api.get(x.read))) as unknown);
      expect(await read(raced)).toEqual(await read(twin));
    });
  }
});
