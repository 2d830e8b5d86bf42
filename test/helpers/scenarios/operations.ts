// Scenario: a workspace running its operations. Operations and crew scheduling on (daily-log
// sign-off when asked), a crew with a foreman who has their own crew-app key, and jobs to schedule;
// used by the operations area's tests and by any test that needs work orders.
import type { TestApp, Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

export const OPERATIONS_SETTINGS = { operations_enabled: true, crew_scheduling_enabled: true };

/** A workspace with operations and crew scheduling on. */
export const scheduleWorkspace = (t: TestApp, settings: Record<string, unknown> = {}) =>
  t.workspace({ settings: { ...OPERATIONS_SETTINGS, ...settings } });

let serial = 0;

/** A crew of one foreman (a crew login with a full key) and its id. */
export async function crewWithForeman(t: TestApp, w: Workspace, name?: string) {
  const n = ++serial;
  const foreman = await t.user(w.firmId, { name: `Foreman ${n}`, email: `foreman${n}@crew.test`, role: 'crew' });
  const crew = (await ok(w.api.post('/v1/crews', { name: name ?? `Crew ${n}`, foreman_user_id: foreman.id }))).data;
  return { crew, foreman };
}

/** A job to schedule work on. */
export async function scheduleJob(w: Workspace, name?: string) {
  const n = ++serial;
  return (
    await ok(w.api.post('/v1/jobs', { name: name ?? `Scheduled job ${n}`, address: `${n} Main St, Springfield` }))
  ).data;
}
