// `groundwork serve`: migrate, seed the demo workspace on an empty database, listen.
import type { Config } from './config.ts';
import { buildApp } from './app.ts';
import { depsOptionsOf, startEnv } from './env.ts';
import { openDatabase } from '#db/database.ts';
import { migrateToLatest } from '#db/migrate.ts';
import { seedDemoWorkspace } from '#seed/demo.ts';
import { startWorker } from '#worker/index.ts';

export async function serve(config: Config): Promise<void> {
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const env = startEnv(database, depsOptionsOf(config));
  const demo = config.demo ? await seedDemoWorkspace(env, `http://localhost:${config.port}`) : null;
  const app = await buildApp(database, { ...config, env });
  const worker = config.worker.inServe ? startWorker(env, config, (m) => app.log.error(m)) : null;
  const close = async () => {
    await app.close();
    await worker?.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  const base = `http://localhost:${config.port}`;
  const lines = [
    '',
    `Groundwork is serving the API at ${base}/v1 (docs: ${base}/v1/docs)`,
    `MCP server for AI assistants: ${base}/v1/mcp (send the key as Authorization: Bearer <key>)`,
    `Database: ${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}`,
  ];
  if (demo) {
    lines.push(
      `Demo workspace "${demo.name}" (firm_id ${demo.firmId}) created. Its full-permission API key, shown only now:`,
      '',
      `    ${demo.key}`,
      '',
      `Try: curl -H "X-API-Key: ${demo.key}" ${base}/v1/jobs`,
      ...(demo.pages.length > 0 ? ['', 'Customer pages of the demo (no key needed):'] : []),
      ...demo.pages.map((p) => `    ${p.label}: ${base}${p.path}`),
    );
  } else if (config.demo) {
    lines.push(
      'The database already has workspaces; make a key with: npm run admin -- key create <firm_id> --user <user_id>',
    );
  }
  if (!config.adminToken) lines.push('Admin API off: set GROUNDWORK_ADMIN_TOKEN to enable /admin/v1.');
  lines.push(
    env.deps.mail.kind === 'smtp'
      ? `Mail goes out through ${config.mail.smtpUrl?.replace(/\/\/[^@]*@/, '//***@')} as ${env.deps.mail.fromAddress}.`
      : `Mail is written to ${config.dataDir}/outbox (nothing leaves this machine): npm run admin -- outbox lists it.`,
  );
  lines.push(
    worker
      ? 'Background worker running (webhook deliveries, mail, export files).'
      : 'Background worker off here (GROUNDWORK_WORKER=false): run `groundwork worker`.',
  );
  console.log(lines.join('\n') + '\n');
}
