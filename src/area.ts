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
import type { DB } from '#db/tables.ts';
import type { PayloadPart } from '#events/payload-parts.ts';
import type { Env } from '#platform/context.ts';
import type { RouteModule } from '#platform/routes.ts';
import type { PageModule } from '#pages/pages.ts';
import type { BackgroundTask } from '#worker/runner.ts';
import type { InvoicedJobCounter, MergeKind, MergeMover } from '#crm/merges/movers.ts';
import type { SearchType, SearchTypeName } from '#crm/search/registry.ts';
import type { Dataset } from '#integrations/exports/datasets.ts';

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
