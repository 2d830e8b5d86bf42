// `groundwork serve`: open and migrate the database, check the data directory, listen, seed the
// demo workspace on an empty database, start the worker. Whatever stops the start is a StartError
// (startup.ts) that main.ts prints before exiting with 1, after this has closed what it opened.
import type { Config } from './config.ts';
import { withoutCredentials } from './config.ts';
import { checkDataDir, listenError, openStartDatabase } from './startup.ts';
import type { DemoWorkspace } from '#seed/demo.ts';
import type { RecordedDemo } from '#seed/demo-links.ts';

export async function serve(config: Config): Promise<void> {
  const database = await openStartDatabase(config.databaseUrl);
  try {
    checkDataDir(config.dataDir);
  } catch (err) {
    await database.close();
    throw err;
  }
  // The app, its areas, the demo and the worker load only now: a database or data directory that
  // cannot be used stops the start in about a second, not after every area has been loaded (two
  // seconds more on an idle machine, far more on a busy one).
  const [{ buildApp }, { depsOptionsOf, startEnv }, { seedDemoWorkspace }, { recordedDemo }, { startWorker }] =
    await Promise.all([
      import('./app.ts'),
      import('./env.ts'),
      import('#seed/demo.ts'),
      import('#seed/demo-links.ts'),
      import('#worker/index.ts'),
    ]);
  const env = startEnv(database, depsOptionsOf(config));
  const app = await buildApp(database, { ...config, env });
  const closeAll = async () => {
    await app.close().catch(() => {});
    await database.close().catch(() => {});
  };
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await closeAll();
    throw listenError(err, config.port, config.host);
  }
  // Listening first: a port in use stops the start before a demo is made whose key nobody sees.
  const local = `http://localhost:${config.port}`;
  // Customer links are made on the public origin when one is set (platform/routes.ts, originOf).
  const linkBase = config.publicUrl ?? local;
  let demo: DemoWorkspace | null = null;
  let earlier: RecordedDemo | null = null;
  try {
    demo = config.demo ? await seedDemoWorkspace(env, linkBase) : null;
    earlier = config.demo && !demo ? await recordedDemo(env) : null;
  } catch (err) {
    await closeAll();
    throw err;
  }
  const worker = config.worker.inServe ? startWorker(env, config, (m) => app.log.error(m)) : null;
  const close = async () => {
    await app.close();
    await worker?.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  const lines = [
    '',
    `Groundwork is serving the API at ${local}/v1 (docs: ${local}/v1/docs)`,
    `MCP server for AI assistants: ${local}/v1/mcp (send the key as Authorization: Bearer <key>)`,
    `Database: ${withoutCredentials(config.databaseUrl)}`,
  ];
  if (demo) {
    lines.push(
      `Demo workspace "${demo.name}" (firm_id ${demo.firmId}) created. Its full-permission API key, shown only now:`,
      '',
      `    ${demo.key}`,
      '',
      `Try: curl -H "X-API-Key: ${demo.key}" ${local}/v1/jobs`,
      ...demoPages(demo.pages, linkBase),
    );
  } else if (earlier) {
    lines.push(
      `Demo workspace "${earlier.name}" (firm_id ${earlier.firmId}). Its API key was shown when it was made and only its hash is kept; make a new one with:`,
      '',
      `    npm run admin -- key create ${earlier.firmId} --user ${earlier.ownerUserId ?? '<user_id>'}`,
      ...demoPages(earlier.pages, linkBase),
    );
  } else if (config.demo) {
    lines.push(
      'The database already has workspaces; make a key with: npm run admin -- key create <firm_id> --user <user_id>',
    );
  }
  if (!config.adminToken) lines.push('Admin API off: set GROUNDWORK_ADMIN_TOKEN to enable /admin/v1.');
  lines.push(
    config.publicUrl
      ? `Links for customers (emails, pages, API answers) are made on ${config.publicUrl}.`
      : 'Warning: GROUNDWORK_PUBLIC_URL is not set, so links in customer emails and API answers use the address ' +
          'each request came to (an integration calling an internal host name mails customers links they cannot ' +
          'open). Set it to the customer-facing origin, e.g. GROUNDWORK_PUBLIC_URL=https://app.example.com.',
  );
  lines.push(
    env.deps.mail.kind === 'smtp'
      ? `Mail goes out through ${withoutCredentials(config.mail.smtpUrl ?? '')} as ${env.deps.mail.fromAddress}.`
      : `Mail is written to ${config.dataDir}/outbox (nothing leaves this machine): npm run admin -- outbox lists it.`,
  );
  lines.push(
    worker
      ? 'Background worker running (webhook deliveries, mail, export files).'
      : 'Background worker off here (GROUNDWORK_WORKER=false): run `groundwork worker`.',
  );
  console.log(lines.join('\n') + '\n');
}

/** The demo's customer pages, one a line, on the origin links are made on. */
function demoPages(pages: readonly { label: string; path: string; retired?: boolean }[], base: string): string[] {
  if (pages.length === 0) return [];
  return [
    '',
    'Customer pages of the demo (no key needed):',
    ...pages.map((p) => `    ${p.label}: ${base}${p.path}${p.retired ? ' (turned off since)' : ''}`),
  ];
}
