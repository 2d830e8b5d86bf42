// The background tasks a worker process runs: webhook deliveries and workspace export files.
import type { Config } from '#src/config.ts';
import type { Database } from '#db/database.ts';
import { WebhookWorker } from '#events/delivery-worker.ts';
import { workspaceExportTask } from '#integrations/exports/workspace-file.ts';
import { systemClock, type Clock } from './clock.ts';
import { startRunner, type BackgroundTask, type Runner } from './runner.ts';

export function backgroundTasks(database: Database, config: Pick<Config, 'worker' | 'dataDir'>, clock: Clock = systemClock): BackgroundTask[] {
  return [
    new WebhookWorker(database, {
      clock, leaseMs: config.worker.leaseMs, concurrency: config.worker.concurrency,
      allowPrivateNetwork: config.worker.allowPrivateNetwork,
    }),
    workspaceExportTask(database, { dataDir: config.dataDir, clock, leaseMs: config.worker.leaseMs }),
  ];
}

/** Starts the worker loops; errors are logged and the loop goes on. */
export function startWorker(database: Database, config: Pick<Config, 'worker' | 'dataDir'>,
  log: (message: string) => void = (m) => console.error(m)): Runner {
  return startRunner(backgroundTasks(database, config), config.worker.pollMs,
    (task, err) => log(`worker ${task}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`));
}
