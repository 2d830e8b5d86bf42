// `groundwork admin …`: the admin API from a shell. It calls the same service functions as
// /admin/v1 against DATABASE_URL, so it works with the server stopped or running.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { Config } from '#src/config.ts';
import { openDatabase } from '#db/database.ts';
import { startEnv } from '#src/env.ts';
import { migrateToLatest } from '#db/migrate.ts';
import { ApiError } from '#platform/errors.ts';
import { PERMISSIONS } from '#platform/permissions.ts';
import {
  addJobStage,
  createApiKey,
  createPartnerKey,
  createUser,
  createWorkspace,
  exportCatalog,
  getWorkspace,
  importCatalog,
  listApiKeys,
  listUsers,
  listWorkspaces,
  mailQueue,
  outboxMessage,
  outboxMessages,
  removeUser,
  retryMail,
  revokeApiKey,
  revokePartnerKey,
  updateUser,
  updateWorkspace,
} from '#admin/index.ts';

export const ADMIN_USAGE = `groundwork admin <command> [--json]

  workspace list
  workspace show <firm_id>
  workspace create --name NAME --owner-name NAME --owner-email EMAIL [--plan gold] [--subscription-status active]
                   [--timezone America/Chicago] [--settings JSON] [--data JSON]
  workspace update <firm_id> [--name] [--plan] [--subscription-status] [--timezone] [--settings JSON] [--data JSON]
  stage add <firm_id> --key KEY --label LABEL --type open|won|lost|excluded [--completed]
  user list <firm_id>
  user add <firm_id> --name NAME --email EMAIL [--role owner|member|viewer|crew] [--data JSON]
  user update <firm_id> <user_id> [--name] [--email] [--role] [--data JSON]
  user remove <firm_id> <user_id>
  key list <firm_id>
  key create <firm_id> --user USER_ID [--permissions read_jobs,write_jobs,...] [--name NAME]
  key revoke <firm_id> <key_id>
  partner-key create --grant FIRM_ID:USER_ID [--grant ...] [--permissions ...] [--name NAME]
  partner-key revoke <key_id>
  catalog import <firm_id> <file.json> [--replace]   merge by name (default) or also archive what the file lacks
  catalog export <firm_id> [file.json]               the workspace's catalog document (stdout without a file)
  outbox [name] [--limit N]                          messages the outbox holds (newest first), or one message as sent
  mail list [--status queued|sent|failed] [--limit N] queued, sent and failed mail, with the last error
  mail retry <mail_id>                               queues a failed message again

--data takes a JSON body exactly as the admin HTTP API does; flags override its fields.
Permissions default to all of: ${PERMISSIONS.join(', ')}.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  plan: { type: 'string' },
  'subscription-status': { type: 'string' },
  timezone: { type: 'string' },
  settings: { type: 'string' },
  data: { type: 'string' },
  'owner-name': { type: 'string' },
  'owner-email': { type: 'string' },
  key: { type: 'string' },
  label: { type: 'string' },
  type: { type: 'string' },
  completed: { type: 'boolean' },
  email: { type: 'string' },
  role: { type: 'string' },
  user: { type: 'string' },
  permissions: { type: 'string' },
  grant: { type: 'string', multiple: true },
  replace: { type: 'boolean' },
  status: { type: 'string' },
  limit: { type: 'string' },
} as const;

type Values = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true }
    ? string[]
    : (typeof OPTIONS)[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

function json(text: string | undefined, flag: string): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error();
    return v;
  } catch {
    throw new ApiError(400, `${flag} must be a JSON object`);
  }
}

function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ApiError(400, `cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError(400, `${file} is not valid JSON: ${(e as Error).message}`);
  }
}

function defined(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

function int(text: string | undefined, what: string): number {
  const n = Number(text);
  if (!text || !Number.isInteger(n) || n < 1) throw new ApiError(400, `${what} must be a positive integer`);
  return n;
}

const permissionsFrom = (v: Values) =>
  v.permissions
    ? v.permissions
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [...PERMISSIONS];

async function dispatch(
  database: Parameters<typeof getWorkspace>[0],
  dataDir: string,
  pos: string[],
  v: Values,
): Promise<unknown> {
  const [noun, verb, a, b] = pos;
  const data = json(v.data, '--data');
  // The outbox takes at most a message name: `outbox` or `outbox <name>`.
  if (noun === 'outbox')
    return verb ? (await outboxMessage(dataDir, verb)).toString('utf8') : outboxMessages(dataDir, v.limit);
  switch (`${noun} ${verb}`) {
    case 'workspace list':
      return listWorkspaces(database);
    case 'workspace show':
      return getWorkspace(database, int(a, 'firm_id'));
    case 'workspace create': {
      const owner = defined({ ...(data.owner as object | undefined), name: v['owner-name'], email: v['owner-email'] });
      return createWorkspace(
        database,
        defined({
          ...data,
          name: v.name ?? data.name,
          plan: v.plan ?? data.plan,
          subscription_status: v['subscription-status'] ?? data.subscription_status,
          timezone: v.timezone ?? data.timezone,
          settings: v.settings ? json(v.settings, '--settings') : data.settings,
          owner,
        }),
      );
    }
    case 'workspace update':
      return updateWorkspace(
        database,
        int(a, 'firm_id'),
        defined({
          ...data,
          name: v.name ?? data.name,
          plan: v.plan ?? data.plan,
          subscription_status: v['subscription-status'] ?? data.subscription_status,
          timezone: v.timezone ?? data.timezone,
          settings: v.settings ? json(v.settings, '--settings') : data.settings,
        }),
      );
    case 'stage add':
      return addJobStage(
        database,
        int(a, 'firm_id'),
        defined({ ...data, key: v.key, label: v.label, type: v.type, completed: v.completed }),
      );
    case 'user list':
      return listUsers(database, int(a, 'firm_id'));
    case 'user add':
      return createUser(
        database,
        int(a, 'firm_id'),
        defined({ ...data, name: v.name ?? data.name, email: v.email ?? data.email, role: v.role ?? data.role }),
      );
    case 'user update':
      return updateUser(
        database,
        int(a, 'firm_id'),
        int(b, 'user_id'),
        defined({ ...data, name: v.name, email: v.email, role: v.role }),
      );
    case 'user remove':
      return removeUser(database, int(a, 'firm_id'), int(b, 'user_id'));
    case 'key list':
      return listApiKeys(database, int(a, 'firm_id'));
    case 'key create':
      return createApiKey(
        database,
        int(a, 'firm_id'),
        defined({ user_id: int(v.user, '--user'), permissions: permissionsFrom(v), name: v.name }),
      );
    case 'key revoke':
      return revokeApiKey(database, int(a, 'firm_id'), int(b, 'key_id'));
    case 'partner-key create': {
      const grants = (v.grant ?? []).map((g) => {
        const [firm, user] = g.split(':');
        return { firm_id: int(firm, '--grant firm_id'), user_id: int(user, '--grant user_id') };
      });
      return createPartnerKey(database, defined({ grants, permissions: permissionsFrom(v), name: v.name }));
    }
    case 'partner-key revoke':
      return revokePartnerKey(database, int(a, 'key_id'));
    case 'catalog import': {
      const firmId = int(a, 'firm_id');
      if (!b) throw new ApiError(400, 'catalog import needs a file: catalog import <firm_id> <file.json>');
      return importCatalog(database, firmId, readJsonFile(b), v.replace ? 'replace' : 'merge');
    }
    case 'catalog export': {
      const doc = await exportCatalog(database, int(a, 'firm_id'));
      if (!b) return doc;
      fs.writeFileSync(b, `${JSON.stringify(doc, null, 2)}\n`);
      return {
        file: b,
        items: doc.items.length,
        services: doc.services.length,
        price_lists: doc.price_lists.length,
        templates: doc.templates.length,
      };
    }
    case 'mail list':
      return mailQueue(database, { status: v.status, limit: v.limit });
    case 'mail retry':
      return retryMail(database, int(a, 'mail_id'));
    default:
      throw new ApiError(400, `unknown admin command "${pos.join(' ')}"`);
  }
}

/** An import's problems, one per line. */
function problemLines(errors: unknown): string {
  if (!Array.isArray(errors)) return '';
  return errors
    .map(
      (p: { path?: string; error?: string; message?: string }) =>
        `\n  ${p.path ?? ''}: ${p.error ?? ''}${p.message ? ` (${p.message})` : ''}`,
    )
    .join('');
}

function human(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result && typeof result === 'object' && 'key' in result && typeof (result as { key: unknown }).key === 'string') {
    const r = result as { key: string; prefix: string; id: number };
    return `API key ${r.id} (${r.prefix}…) created. Shown only now:\n\n    ${r.key}\n`;
  }
  return JSON.stringify(result, null, 2);
}

/** Runs one admin command; returns the process exit code. */
export async function runAdmin(
  config: Pick<Config, 'databaseUrl'> & Partial<Pick<Config, 'dataDir'>>,
  args: string[],
  out: (s: string) => void = (s) => console.log(s),
  err: (s: string) => void = (s) => console.error(s),
): Promise<number> {
  const parse = () => parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (e) {
    err(`${(e as Error).message}\n\n${ADMIN_USAGE}`);
    return 2;
  }
  const v = parsed.values as Values;
  if (v.help || (parsed.positionals.length < 2 && parsed.positionals[0] !== 'outbox')) {
    (v.help ? out : err)(ADMIN_USAGE);
    return v.help ? 0 : 2;
  }
  const database = openDatabase(config.databaseUrl);
  startEnv(database);
  try {
    await migrateToLatest(database);
    const result = await dispatch(database, config.dataDir ?? 'data', parsed.positionals, v);
    out(v.json ? JSON.stringify({ data: result }) : human(result));
    return 0;
  } catch (e) {
    if (e instanceof ApiError) {
      err(
        v.json
          ? JSON.stringify(e.body)
          : `error ${e.status}: ${e.body.error}${e.body.message ? ` (${e.body.message})` : ''}${problemLines(e.body.errors)}`,
      );
      return 1;
    }
    throw e;
  } finally {
    await database.close();
  }
}
