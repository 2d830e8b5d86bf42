// The operator's part of the busy day and each workspace's history, written directly (no HTTP):
// the workspace, its owner and two full-permission keys (one for the integrator and its sync
// client, one for the office app and the assistant), made by the admin services as `groundwork
// admin` makes them; then its older records in bulk: customers each with a site, and jobs
// (bench/seed.ts). The sizing steps add workspaces the same way while the server runs, between
// phases, so the database holds as many workspaces of this size as the step offers traffic for.
import { sql } from 'kysely';
import { installAreas } from '#src/area.ts';
import { AREAS } from '#src/areas.ts';
import type { Database } from '#db/database.ts';
import { createApiKey, createWorkspace } from '#admin/index.ts';
import { PERMISSIONS } from '#platform/permissions.ts';
import { addressKey, nameKey } from '#platform/text.ts';
import { insertJobs } from '../seed.ts';
import type { WorkspaceSize } from './mix.ts';

export interface ProvisionedWorkspace {
  /** 0-based, the order they were made in. */
  index: number;
  firmId: number;
  integratorKey: string;
  officeKey: string;
  /** The jobs' ids as runs of consecutive ids, [first, last] (one run, unless other writers interleaved). */
  jobs: [number, number][];
  /** Words the office and the assistant search by (customer names, places, streets, job names). */
  terms: string[];
  /** A job name taken in the workspace (the integrator's designed 409). */
  takenName: string;
}

/** Every job id of a workspace, from its runs. */
export const jobIdsOf = (w: ProvisionedWorkspace): number[] =>
  w.jobs.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => first + i));

export const NAMES = ['Maple', 'Riverside', 'Oakwood', 'Summit', 'Lakeview', 'Northgate', 'Cedar', 'Harbor'];
export const PLACES = ['HOA', 'Plaza', 'Church', 'Apartments', 'Medical Center', 'School', 'Storage'];
export const STREETS = ['Commerce Dr', 'Elm St', 'Industrial Pkwy', 'High St', 'Broad St', 'Morse Rd'];

/** Last year's records: the sync clients' watermarks are past them. */
const HISTORY_AT = '2025-06-01T12:00:00.000000';

/** The workspace's customers, each with its site, as the API would store them. */
async function insertCustomers(database: Database, firmId: number, count: number): Promise<void> {
  if (count === 0) return;
  const customers = await database.db
    .insertInto('client_accounts')
    .values(
      Array.from({ length: count }, (_, k) => {
        const name = `${NAMES[k % NAMES.length]} ${PLACES[k % PLACES.length]} ${k + 1}`;
        return {
          firm_id: firmId,
          name,
          name_key: nameKey(name),
          external_ref: null,
          email: `ap${k + 1}@customer${k + 1}.example.com`,
          phone: `614555${String(1000 + k).slice(-4)}`,
          address: null,
          notes: null,
          custom_fields: '{}',
          archived_at: null,
          created_at: HISTORY_AT,
          updated_at: HISTORY_AT,
        };
      }),
    )
    .returning('id')
    .execute();
  await database.db
    .insertInto('locations')
    .values(
      customers.map(({ id }, k) => {
        const address = `${100 + k} ${STREETS[k % STREETS.length]}, Columbus, OH 43215`;
        return {
          firm_id: firmId,
          name: address,
          address,
          address_key: addressKey(address),
          external_ref: null,
          client_account_id: id,
          property_reference: null,
          notes: null,
          custom_fields: '{}',
          merged_into_id: null,
          pci: null,
          archived_at: null,
          created_at: HISTORY_AT,
          updated_at: HISTORY_AT,
        };
      }),
    )
    .execute();
}

/** Workspace `index` at `size`. */
async function provisionOne(database: Database, index: number, size: WorkspaceSize): Promise<ProvisionedWorkspace> {
  const name = `Day Paving ${index + 1}`;
  const { firm_id: firmId, owner_user_id: ownerId } = await createWorkspace(database, {
    name,
    timezone: 'America/New_York',
    owner: { name: `Owner ${index + 1}`, email: `owner${index + 1}@day.example.com` },
    // The customers' invoice pages take test cards (the built-in test mode of online payments).
    settings: { online_payments_connected: true, remit_to: { name, address: '1200 Industrial Pkwy, Columbus, OH' } },
  });
  const key = async (who: string) =>
    (await createApiKey(database, firmId, { user_id: ownerId, name: who, permissions: [...PERMISSIONS] })).key;
  const integratorKey = await key('integrator');
  const officeKey = await key('office');
  await insertCustomers(database, firmId, size.customers);
  const prefix = `Lot ${index + 1}`;
  await insertJobs(database, firmId, ownerId, size.jobs, { namePrefix: prefix, customFields: '{}', at: HISTORY_AT });
  const jobs: [number, number][] = [];
  for (const { id } of await database.db
    .selectFrom('jobs')
    .select('id')
    .where('firm_id', '=', firmId)
    .orderBy('id')
    .execute()) {
    const run = jobs.at(-1);
    if (run && run[1] === id - 1) run[1] = id;
    else jobs.push([id, id]);
  }
  return {
    index,
    firmId,
    integratorKey,
    officeKey,
    jobs,
    terms: [...NAMES, ...PLACES.map((p) => `${NAMES[index % NAMES.length]} ${p}`), 'Commerce', 'Morse', prefix],
    // insertJobs names job k "<prefix> <job number>"; numbers start at 1001.
    takenName: `${prefix} 1001`,
  };
}

/**
 * Workspaces `from` to `from + count - 1` at `size`, one after another. (On PostgreSQL most of the
 * time is the ANALYZE bench/seed.ts runs after each workspace's jobs, about 0.2 s at 50 workspaces
 * and 0.5 s at 800; making four at a time was no faster, as those ANALYZEs wait for each other.)
 */
export async function provisionWorkspaces(
  database: Database,
  from: number,
  count: number,
  size: WorkspaceSize,
): Promise<ProvisionedWorkspace[]> {
  installAreas(AREAS);
  const made: ProvisionedWorkspace[] = [];
  for (let index = from; index < from + count; index++) made.push(await provisionOne(database, index, size));
  // What the server would otherwise inherit: on SQLite, a write-ahead log of everything just written,
  // which its next commit would start copying into the database on its one thread (a 500 MB log
  // held reads up for seconds); on PostgreSQL, tables not analyzed since they grew.
  if (database.dialect.engine === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(database.db);
  else await sql`analyze`.execute(database.db);
  return made;
}
