// What an area contributes, and the one compiled view of every area's contributions.
//
// An area (crm, estimating, integrations …) names everything it adds in one manifest object
// (src/modules/<area>/area.ts); src/areas.ts lists the manifests in order. Each process entry
// point (buildApp, the worker, the CLI, the demo seed) installs that list once with
// `installAreas`, and the shared mechanisms — job and record merges, webhook payloads, exports,
// search, the worker, a new workspace's starter records — read it through `contributions()`. Nothing registers itself by being
// imported, so what a merge moves or an export holds never depends on which files some entry
// point happened to load.
import type { Transaction } from 'kysely';
import type { Engine, Executor } from '#db/dialect.ts';
import type { DB, User } from '#db/tables.ts';
import type { PayloadPart } from '#events/payload-parts.ts';
import type { Env } from '#platform/context.ts';
import type { RouteModule } from '#platform/routes.ts';
import type { PageModule } from '#pages/pages.ts';
import type { BackgroundTask } from '#worker/index.ts';

export interface Area {
  /** The folder under src/modules. */
  name: string;
  /** Route modules, registered in this order under /v1. */
  routes: readonly RouteModule[];
  /** Customer pages (keyless HTML outside /v1), each beside the visit.ts of its resource. */
  pages?: readonly PageModule[];
  /** What a merge of each kind of record moves to the kept one (tables pointing at it). */
  mergeMovers?: { readonly [K in MergeKind]?: readonly MergeMover[] };
  /** Records riding along in webhook bodies (`job`, `estimate`). */
  payloadParts?: readonly PayloadPart[];
  /** Bulk-export datasets, in the order document 3 lists them. */
  exportDatasets?: readonly Dataset[];
  /** Record kinds GET /v1/search looks through. */
  searchTypes?: readonly SearchType[];
  /** How many of a site's jobs carry invoices (the billing area). */
  invoicedJobCounter?: InvoicedJobCounter;
  /** The quantities of a takeoff an estimate area links to (the measurement area). */
  takeoffQuantities?: TakeoffQuantities;
  /** Background tasks the worker runs for this area. */
  workerTasks?: (env: Env, settings: WorkerSettings) => readonly BackgroundTask[];
  /** Records every new workspace starts with, made in the transaction that creates it. */
  workspaceStarters?: readonly WorkspaceStarter[];
  /** Stored objects (photos, files) that go with a job or contact deleted outright. */
  storedObjects?: { readonly [K in DeletedRecordKind]?: readonly StoredObjectsOf[] };
}

/** Records deleted outright whose rows (and so stored objects) other areas hang on them. */
export type DeletedRecordKind = 'job' | 'contact';

/**
 * The storage keys of the objects whose rows go with the record (by cascade or by the delete): read
 * in the delete's transaction before the record's row goes; the objects are removed after the commit.
 */
export type StoredObjectsOf = (trx: Transaction<DB>, firmId: number, recordId: number) => Promise<string[]>;

/** Gives a new workspace an area's starter records (its catalog and owner exist already). */
export type WorkspaceStarter = (trx: Transaction<DB>, firmId: number) => Promise<void>;

/** Every area's contributions, merged in area order. */
export interface Contributions {
  areas: readonly Area[];
  routes: readonly RouteModule[];
  pages: readonly PageModule[];
  mergeMovers: { readonly [K in MergeKind]: readonly MergeMover[] };
  payloadParts: readonly PayloadPart[];
  exportDatasets: readonly Dataset[];
  searchTypes: ReadonlyMap<SearchTypeName, SearchType>;
  invoicedJobCounter: InvoicedJobCounter | null;
  takeoffQuantities: TakeoffQuantities | null;
  workerTasks(env: Env, settings: WorkerSettings): BackgroundTask[];
  workspaceStarters: readonly WorkspaceStarter[];
  storedObjects: { readonly [K in DeletedRecordKind]: readonly StoredObjectsOf[] };
}

/** What the worker process tells every task (GROUNDWORK_WORKER_LEASE_MS). */
export interface WorkerSettings {
  leaseMs: number;
}

function unique<T>(items: readonly T[], keyOf: (item: T) => string, what: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    const key = keyOf(item);
    if (seen.has(key)) throw new Error(`${what} "${key}" is contributed twice`);
    seen.add(key);
  }
}

export function compileAreas(areas: readonly Area[]): Contributions {
  unique(areas, (a) => a.name, 'area');
  const all = <T>(pick: (a: Area) => readonly T[] | undefined): T[] => areas.flatMap((a) => pick(a) ?? []);
  const payloadParts = all((a) => a.payloadParts);
  const exportDatasets = all((a) => a.exportDatasets);
  const searchTypes = all((a) => a.searchTypes);
  unique(payloadParts, (p) => p.field, 'payload part');
  unique(exportDatasets, (d) => d.name, 'export dataset');
  unique(searchTypes, (t) => t.type, 'search type');
  const counters = areas.flatMap((a) => (a.invoicedJobCounter ? [a.invoicedJobCounter] : []));
  if (counters.length > 1) throw new Error('more than one area counts invoiced jobs');
  const takeoffs = areas.flatMap((a) => (a.takeoffQuantities ? [a.takeoffQuantities] : []));
  if (takeoffs.length > 1) throw new Error('more than one area answers takeoff quantities');
  return Object.freeze({
    areas,
    routes: all((a) => a.routes),
    pages: all((a) => a.pages),
    mergeMovers: {
      job: all((a) => a.mergeMovers?.job),
      client_account: all((a) => a.mergeMovers?.client_account),
      contact: all((a) => a.mergeMovers?.contact),
      location: all((a) => a.mergeMovers?.location),
    },
    payloadParts,
    exportDatasets,
    searchTypes: new Map(searchTypes.map((t) => [t.type, t])),
    invoicedJobCounter: counters[0] ?? null,
    takeoffQuantities: takeoffs[0] ?? null,
    workerTasks: (env: Env, settings: WorkerSettings) =>
      areas.flatMap((a) => [...(a.workerTasks?.(env, settings) ?? [])]),
    workspaceStarters: all((a) => a.workspaceStarters),
    storedObjects: {
      job: all((a) => a.storedObjects?.job),
      contact: all((a) => a.storedObjects?.contact),
    },
  });
}

let installed: Contributions | null = null;

/**
 * Installs the area list for this process. Idempotent for the same list (every app a test builds
 * installs it again); a different list is a programming error.
 */
export function installAreas(areas: readonly Area[]): Contributions {
  if (installed) {
    if (installed.areas.length !== areas.length || installed.areas.some((a, i) => a !== areas[i])) {
      throw new Error('a different area list is already installed in this process');
    }
    return installed;
  }
  installed = compileAreas(areas);
  return installed;
}

/**
 * Tests only: forgets the installed list, as a new process starts. Test files share their worker's
 * modules (vitest.config.ts), and a file may install a list of its own (a stand-in area).
 */
export function uninstallAreasForTests(): void {
  installed = null;
}

/**
 * The stored objects that go with a job or contact about to be deleted outright (every area's
 * storedObjects), for the delete to remove after its commit (platform/storage/cleanup.ts).
 */
export async function objectsGoingWith(
  kind: DeletedRecordKind,
  trx: Transaction<DB>,
  firmId: number,
  recordId: number,
): Promise<string[]> {
  const keys: string[] = [];
  for (const of of contributions().storedObjects[kind]) keys.push(...(await of(trx, firmId, recordId)));
  return keys;
}

/** The installed contributions; an entry point that forgot installAreas fails loudly here. */
export function contributions(): Contributions {
  if (!installed)
    throw new Error('no areas installed: the entry point must call installAreas(AREAS) from src/areas.ts first');
  return installed;
}

// ---- The contract's parts: what a manifest entry is ----------------------------------------
// Defined here, not in the area that runs them, so that every area types its contributions
// against the contract rather than against another area's files.

// Merges (document 2, Search and merge; crm/merges runs them).

export type MergeKind = 'job' | RecordMergeKind;

/** The records merged with a preview and field choices (document 2, Search and merge). */
export type RecordMergeKind = 'client_account' | 'contact' | 'location';

/** The merge a mover works for. */
export interface MergeScope {
  firmId: number;
  /** The key's user (authors of anything a mover logs). */
  userId: number;
  keptId: number;
  awayId: number;
  /** The kept record's name after the merge, and the merged-away record's name. */
  keptName: string;
  awayName: string;
  /** The field choices resolved for every differing field ('keep', 'drop' or 'both'); empty for jobs. */
  choices: Readonly<Record<string, string>>;
}

/**
 * Moves one kind of row from the merged-away record to the kept one, inside the merge's
 * transaction. Rows a mover leaves behind go with the merged-away record (ON DELETE CASCADE).
 */
export interface MergeMover {
  /** Plural noun shown in a merge preview's moves, e.g. 'jobs'. */
  label: string;
  /**
   * How many rows the merge would move (the preview runs it outside a transaction). Kinds with a
   * preview (customers, contacts, sites) need it on every mover; job merges have no preview.
   */
  count?(db: Executor, fromId: number, scope: MergeScope): Promise<number>;
  move(trx: Transaction<DB>, fromId: number, toId: number, scope: MergeScope): Promise<void>;
}

/** A measured quantity an estimate line can take: in square feet, linear feet or each. */
export interface TakeoffQuantity {
  quantity: number;
  unit: 'SF' | 'LF' | 'EA';
}

/**
 * The quantities of a takeoff (a measurement) by key ("area", "surface:main", "line:curb",
 * "count:stalls", "item:Planters"), or null when the user cannot see it in this workspace.
 */
export type TakeoffQuantities = (
  db: Executor,
  firmId: number,
  user: User,
  takeoffId: number,
) => Promise<Map<string, TakeoffQuantity> | null>;

/** Counts jobs of a site that carry invoices (document 2: such a site needs move_invoiced_jobs). */
export type InvoicedJobCounter = (db: Executor, firmId: number, locationId: number) => Promise<number>;

// Search (document 2, Search and merge; crm/search runs it). A record kind joins GET /v1/search by
// a SearchType in its area's manifest; `search` returns the type's best `limit` hits for the key's
// user, best first. Kinds the spec names whose records do not exist yet are accepted in `types`
// and return nothing.

export interface SearchQuery {
  /** Trimmed, inner whitespace collapsed to single spaces: what is matched and echoed back. */
  text: string;
  /** Lower-cased `text` (ranking compares folded values). */
  folded: string;
  /** Two characters: word-start matching. */
  short: boolean;
}

/** How a hit matched: 0 exact, 1 prefix, 2 contains. */
export type Rank = 0 | 1 | 2;

/** Every type name GET /v1/search accepts (document 2, Search and merge), in response order. */
export const SEARCH_TYPE_NAMES = [
  'job',
  'client_account',
  'contact',
  'location',
  'lead',
  'proposal',
  'invoice',
  'note',
  'project',
  'measurement',
] as const;
export type SearchTypeName = (typeof SEARCH_TYPE_NAMES)[number];

/** Who is searching: results are what this user sees in this workspace. */
export interface SearchCaller {
  firmId: number;
  user: User;
  engine: Engine;
}

/** One result as the API returns it. */
export interface SearchResult {
  type: SearchTypeName;
  id: number;
  title: string;
  subtitle: string | null;
  status: string | null;
  app_url: string;
}

/** A result with what orders it within its type. */
export interface SearchHit extends SearchResult {
  rank: Rank;
  /** Stored-form timestamp (sorts as text). */
  updated_at: string;
}

export interface SearchType {
  type: SearchTypeName;
  search(db: Executor, caller: SearchCaller, q: SearchQuery, limit: number): Promise<SearchHit[]>;
}

// Bulk export (document 3, Bulk data export; integrations/exports runs it). Each area declares its
// datasets next to its queries (<resource>/export.ts) with defineDataset.

/** Whose rows, and which: the workspace, the user whose visibility applies, the changed-since bound. */
export interface ExportScope {
  firmId: number;
  /** Users who see only their own jobs export only those jobs (and the records hanging on them). */
  user: User;
  /** Stored-form timestamp: only rows where any changed-since field is later. */
  updatedAfter?: string;
}

/** One keyset page: rows with an id above `afterId`, in id order, at most `limit` of them. */
export interface BatchRequest extends ExportScope {
  afterId: number;
  limit: number;
}

export interface Dataset<Row extends { id: number } = { id: number }> {
  /** The name in the URL (/v1/exports/<name>.jsonl) and in the workspace zip (<name>.jsonl). */
  name: string;
  description: string;
  /** Wire field names; updated_after keeps rows where any of them is later. */
  changedSinceFields: readonly string[];
  /** Reads one keyset page; must scope by firm_id and by the user's visibility. */
  readBatch(db: Executor, request: BatchRequest): Promise<Row[]>;
  /** The exported row: one JSON line. */
  toRow(row: Row): unknown;
}

/** Declares a dataset (typed identity: the row type flows from readBatch to toRow). */
export function defineDataset<Row extends { id: number }>(dataset: Dataset<Row>): Dataset<Row> {
  return dataset;
}
