// The background tasks a worker process runs: webhook deliveries (the events core), queued mail
// (platform/mail) and every
// area's own tasks (src/area.ts, workerTasks: workspace export files today).
import type { Config } from '#src/config.ts';
import { contributions } from '#src/area.ts';
import { WebhookWorker } from '#events/delivery-worker.ts';
import { MailWorker } from '#platform/mail/worker.ts';
import type { Env } from '#platform/context.ts';
import { startRunner, type BackgroundTask, type Runner } from './runner.ts';

// The loop itself, for callers that run tasks of their own through it (benchmarks, tests).
export { startRunner, type BackgroundTask, type Runner } from './runner.ts';

export function backgroundTasks(env: Env, config: Pick<Config, 'worker'>): BackgroundTask[] {
  return [
    new WebhookWorker(env.database, {
      clock: env.deps.clock,
      leaseMs: config.worker.leaseMs,
      concurrency: config.worker.concurrency,
      allowPrivateNetwork: config.worker.allowPrivateNetwork,
      // Its waits for free slots end at the same poll as the runner's sleep (GROUNDWORK_WORKER_POLL_MS).
      pollMs: config.worker.pollMs,
      retentionDays: env.deps.deliveryRetentionDays,
    }),
    new MailWorker(env.database, env.deps.mail, { clock: env.deps.clock, leaseMs: config.worker.leaseMs }),
    ...contributions().workerTasks(env, { leaseMs: config.worker.leaseMs }),
  ];
}

/** Starts the worker loops; errors are logged and the loop goes on. */
export function startWorker(
  env: Env,
  config: Pick<Config, 'worker'>,
  log: (message: string) => void = (m) => console.error(m),
): Runner {
  return startRunner(backgroundTasks(env, config), config.worker.pollMs, (task, err) =>
    log(`worker ${task}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  );
}
