// CLI entry: `serve` (default), `worker`, `migrate`, `admin …`. `npm start` runs `serve`.
import { loadConfig } from './config.ts';
import { openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  const config = loadConfig();
  if (command === 'admin') {
    const { runAdmin } = await import('#cli/admin.ts');
    process.exitCode = await runAdmin(config, rest);
    return;
  }
  if (command === 'migrate') {
    const database = openDatabase(config.databaseUrl);
    await migrateToLatest(database);
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
    const database = openDatabase(config.databaseUrl);
    await migrateToLatest(database);
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
  process.exitCode = 1;
});
