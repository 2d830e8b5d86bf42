// The columns a job keeps for the reports (src/modules/crm/jobs/report-columns.ts,
// platform/address-parts.ts; docs/reports.md, "Job reports"), kept by the job's own writes:
// decided_at on entering a won, lost or excluded stage (cleared back in an open one), bid_at on the
// first proposal sent, and the address's ZIP and city on every address write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ job_stages: [{ key: 'withdrawn', label: 'Withdrawn', type: 'excluded' }] });
});
afterAll(() => {
  resumeClock();
  return t.close();
});

const columns = (id: number) =>
  t.database.db
    .selectFrom('jobs')
    .select(['decided_at', 'bid_at', 'address_zip', 'address_city', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('job report columns', () => {
  it('decided_at: set entering won, lost or excluded from another type, kept within a type, cleared when reopened', async () => {
    pauseClock();
    const id = (await ok(w.api.post('/v1/jobs', { name: 'Decided lot' }))).data.id;
    expect((await columns(id)).decided_at).toBeNull();
    await ok(w.api.patch(`/v1/jobs/${id}`, { status: 'won' }));
    const won = await columns(id);
    expect(won.decided_at).toBe(won.updated_at);
    advanceClock(60_000);
    await ok(w.api.patch(`/v1/jobs/${id}`, { status: 'lost' }));
    const lost = await columns(id);
    expect(lost.decided_at).toBe(lost.updated_at);
    expect(lost.decided_at! > won.decided_at!).toBe(true);
    advanceClock(60_000);
    await ok(w.api.patch(`/v1/jobs/${id}`, { status: 'active' }));
    expect((await columns(id)).decided_at).toBeNull();
    await ok(w.api.patch(`/v1/jobs/${id}`, { status: 'withdrawn' }));
    expect((await columns(id)).decided_at).not.toBeNull();
    const born = (await ok(w.api.post('/v1/jobs', { name: 'Born won', status: 'won' }))).data.id;
    expect((await columns(born)).decided_at).toBe((await columns(born)).updated_at);
    resumeClock();
  });

  it('bid_at: the first proposal sent, not moved by a second sending', async () => {
    const made = await proposalOnJob(w);
    const first = (await columns(made.job.id)).bid_at;
    expect(first).not.toBeNull();
    await ok(w.api.post(`/v1/proposals/${made.proposal.id}/send`, {}));
    expect((await columns(made.job.id)).bid_at).toBe(first);
    const draft = await proposalOnJob(w, { send: false });
    expect((await columns(draft.job.id)).bid_at).toBeNull();
  });

  it('ZIP and city follow every address write', async () => {
    const id = (await ok(w.api.post('/v1/jobs', { name: 'Addressed lot', address: '12 Elm St, Columbus, OH 43215' })))
      .data.id;
    expect(await columns(id)).toMatchObject({ address_zip: '43215', address_city: 'Columbus' });
    await ok(w.api.patch(`/v1/jobs/${id}`, { address: '9 Oak Ave, Dublin OH 43017-1234' }));
    expect(await columns(id)).toMatchObject({ address_zip: '43017', address_city: 'Dublin' });
    await ok(w.api.patch(`/v1/jobs/${id}`, { address: null }));
    expect(await columns(id)).toMatchObject({ address_zip: null, address_city: null });
  });
});
