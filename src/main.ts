// CLI entry: `serve` (default), `migrate`, `admin …`. `npm start` runs `serve`.
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  const config = loadConfig();
  if (command === 'admin') {
    const { runAdmin } = await import('./cli/admin.ts');
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
  console.error(`unknown command "${command}"; use serve, migrate or admin`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
