// The worker as `serve` starts it (worker/index.ts: every background task) on a test app's
// environment, polling once an hour: whatever it does within a test's few seconds, a commit's wake
// made it do (events/queued.ts, platform/work-queued.ts).
import type { Env } from '#platform/context.ts';
import { startWorker } from '#worker/index.ts';

export const HOUR = 3_600_000;

export async function startServeWorker(env: Env, leaseMs = 30_000) {
  const errors: string[] = [];
  const worker = startWorker(
    env,
    {
      worker: {
        inServe: true,
        pollMs: HOUR,
        leaseMs,
        concurrency: 8,
        allowPrivateNetwork: true,
        deliveryRetentionDays: 30,
      },
    },
    (message) => errors.push(message),
  );
  // Its first sweeps find nothing, and every loop sleeps for the hour.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { errors, stop: () => worker.stop() };
}
