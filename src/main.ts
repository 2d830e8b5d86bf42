// CLI entry: `serve` (default), `worker`, `migrate`, `admin …`. `npm start` runs `serve`.
import { loadConfig } from './config.ts';
import { checkDataDir, openStartDatabase } from './startup.ts';

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  const config = loadConfig();
  if (command === 'admin') {
    const { runAdmin } = await import('#cli/admin.ts');
    process.exitCode = await runAdmin(config, rest);
    return;
  }
  if (command === 'migrate') {
    const database = await openStartDatabase(config.databaseUrl);
    await database.close();
    console.log('migrations applied');
    return;
  }
  if (command === 'serve') {
    const { serve } = await import('./serve.ts');
    await serve(config);
    return;
  }
  if (command === 'worker') {
    // The background worker alone, for deployments that run it beside API-only servers.
    const { startWorker } = await import('#worker/index.ts');
    const database = await openStartDatabase(config.databaseUrl);
    try {
      checkDataDir(config.dataDir);
    } catch (err) {
      await database.close();
      throw err;
    }
    const { startEnv, depsOptionsOf } = await import('./env.ts');
    const worker = startWorker(startEnv(database, depsOptionsOf(config)), config);
    console.log('Groundwork worker running (webhook deliveries, mail, export files); Ctrl-C stops it.');
    const stop = async () => {
      await worker.stop();
      await database.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  console.error(`unknown command "${command}"; use serve, worker, migrate or admin`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  // Exit now: a start that failed half-way may have left timers or connections that would keep
  // the process running (a port in use used to leave the worker and the database pool alive).
  process.exit(1);
});
