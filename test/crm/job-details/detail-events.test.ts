// Job-page writes outside PATCH /v1/jobs also record their webhook-only job_updated event in the
// same transaction, naming the changed fields as the API spells them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function newEvents(jobId: number, before: number) {
  return (await eventsOf(t.database, jobId)).slice(before);
}

describe('job_updated from job-page writes', () => {
  it('details, operations assignment and the site link each record one job_updated', async () => {
    const w = await t.workspace({
      settings: { crew_scheduling_enabled: true },
      divisions: [{ key: 'paving', name: 'Paving' }],
    });
    const job = (await w.api.post('/v1/jobs', { name: 'Detail events', address: '5 Elm St' })).body.data;
    let n = (await eventsOf(t.database, job.id)).length;

    expect(
      (
        await w.api.patch(`/v1/jobs/${job.id}/details`, {
          job_number: 7001,
          liquidated_damages_per_day: 250,
          property_reference: 'P-1',
        })
      ).status,
    ).toBe(200);
    let added = await newEvents(job.id, n);
    expect(added.map((e) => [e.event_type, e.in_feed])).toEqual([['job_updated', 0]]);
    expect(added[0].data.changed_fields).toEqual(['job_number', 'property_reference', 'liquidated_damages_per_day']);
    n += added.length;

    expect((await w.api.patch(`/v1/jobs/${job.id}/operations-assignment`, { division: 'paving' })).status).toBe(200);
    added = await newEvents(job.id, n);
    expect(added.map((e) => e.event_type)).toEqual(['job_updated']);
    expect(added[0].data.changed_fields).toEqual(['division']);
    n += added.length;

    expect((await w.api.put(`/v1/jobs/${job.id}/location`, { location_id: null })).status).toBe(200);
    added = await newEvents(job.id, n);
    expect(added.map((e) => e.event_type)).toEqual(['job_updated']);
    expect(added[0].data.changed_fields).toEqual(['location_id']);
    n += added.length;

    // Sending the same values again changes nothing and records nothing.
    expect((await w.api.patch(`/v1/jobs/${job.id}/details`, { job_number: 7001 })).status).toBe(200);
    expect(await newEvents(job.id, n)).toEqual([]);
  });

  it('a merge records job_updated on the kept job when it fills its blanks', async () => {
    const w = await t.workspace();
    const kept = (await w.api.post('/v1/jobs', { name: 'Kept' })).body.data;
    const away = (await w.api.post('/v1/jobs', { name: 'Away', notes: 'gate code 4411' })).body.data;
    const n = (await eventsOf(t.database, kept.id)).length;
    expect((await w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id })).status).toBe(200);
    const added = await newEvents(kept.id, n);
    expect(added.map((e) => e.event_type)).toEqual(['job_updated']);
    expect(added[0].data.changed_fields).toEqual(['notes']);
  });
});
