// The background task that builds workspace_data exports (POST /v1/exports) and deletes them
// once their 24 hours are over. A build holds its export by a lease (locked_until, lease_token)
// that it renews as it goes; a build that crashes simply stops renewing, and once the lease runs
// out the next sweep, in this or any other worker, builds the file again from scratch. Three
// attempts that crash or fail mark the export failed.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Database } from '#db/database.ts';
import type { ExportFile } from '#db/tables.ts';
import { billingBlocked } from '#platform/plans.ts';
import { storedAt } from '#platform/time.ts';
import { whenWorkQueued } from '#platform/work-queued.ts';
import type { Clock } from '#platform/clock.ts';
import type { BackgroundTask } from '#worker/index.ts';
import { exportsDir, finalPath, partialPath, removeFile, removeLeftovers, zipName } from './storage.ts';
import {
  anyExportDue,
  claimPendingExport,
  EXPORT_FILE_QUEUE,
  failAbandonedExports,
  findExpiredExports,
  findRequester,
  holdsLease,
  markAttemptFailed,
  markExpired,
  markReady,
  renewLease,
  subscriptionStatusOf,
} from './repo.ts';
import { WATERMARK_LEAD_MS } from './watermark.ts';
import { writeWorkspaceZip } from './zip.ts';

export const MAX_BUILD_ATTEMPTS = 3;
/** A build that failed (rather than crashed) is tried again after this long. */
export const RETRY_AFTER_MS = 60_000;
const EXPIRE_PER_SWEEP = 100;

export interface WorkspaceExportOptions {
  dataDir: string;
  clock: Clock;
  /** How long a claimed build is held before another worker may take it over. */
  leaseMs: number;
}

/** Thrown inside a build that finds another worker has taken its export over. */
class LeaseLost extends Error {}

/** A failure the requester can do nothing about by retrying: the export fails at once. */
class Unbuildable extends Error {}

export function workspaceExportTask(database: Database, options: WorkspaceExportOptions): BackgroundTask {
  const { db } = database;
  const { dataDir, clock, leaseMs } = options;

  /** Deletes the files of exports past their 24 hours; the rows stay, as expired. */
  async function expire(): Promise<number> {
    const at = storedAt(clock.now());
    const due = await findExpiredExports(db, at, EXPIRE_PER_SWEEP);
    for (const file of due) {
      await markExpired(db, file, at);
      await removeLeftovers(dataDir, file.id, null);
    }
    return due.length;
  }

  async function scopeOf(file: ExportFile) {
    const [status, user] = await Promise.all([subscriptionStatusOf(db, file.firm_id), findRequester(db, file)]);
    // Exports are refused after cancellation (document 3); a file requested before is not built.
    if (status === undefined || billingBlocked(status))
      throw new Unbuildable('Workspace billing is past due or inactive');
    if (!user) throw new Unbuildable('The user who requested the export no longer exists');
    return { firmId: file.firm_id, user };
  }

  async function build(file: ExportFile, leaseToken: string, startedMs: number): Promise<void> {
    const name = zipName(file.id, leaseToken);
    const partial = partialPath(dataDir, name);
    let renewedMs = startedMs;
    const renew = async () => {
      const t = clock.now();
      if (t - renewedMs < leaseMs / 3) return;
      renewedMs = t;
      if (!(await renewLease(db, file.id, leaseToken, storedAt(t + leaseMs)))) throw new LeaseLost();
    };
    try {
      const scope = await scopeOf(file);
      await fs.promises.mkdir(exportsDir(dataDir), { recursive: true });
      const rowCounts = await writeWorkspaceZip(db, scope, partial, { mtime: new Date(startedMs), onBatch: renew });
      const final = finalPath(dataDir, name);
      await fs.promises.rename(partial, final);
      const { size } = await fs.promises.stat(final);
      const at = storedAt(clock.now());
      const done = {
        fileName: name,
        sizeBytes: size,
        rowCounts,
        watermark: storedAt(startedMs - WATERMARK_LEAD_MS),
        at,
      };
      // Lost the lease meanwhile: the worker that took over serves its own file, not this one.
      if (!(await markReady(db, file.id, leaseToken, done))) return await removeFile(final);
      await removeLeftovers(dataDir, file.id, name);
    } catch (err) {
      await removeFile(partial);
      // Taken over (this build stalled past its lease): the export is the other build's now.
      if (err instanceof LeaseLost || !(await holdsLease(db, file.id, leaseToken))) return;
      const giveUp = err instanceof Unbuildable || file.attempts >= MAX_BUILD_ATTEMPTS;
      const message =
        err instanceof Unbuildable
          ? err.message
          : giveUp
            ? `Building the export failed ${file.attempts} times`
            : `Building the export failed (attempt ${file.attempts} of ${MAX_BUILD_ATTEMPTS}); it will be tried again`;
      const now = clock.now();
      await markAttemptFailed(
        db,
        file.id,
        leaseToken,
        message,
        storedAt(now),
        giveUp ? null : storedAt(now + RETRY_AFTER_MS),
      );
      if (giveUp) await removeLeftovers(dataDir, file.id, null);
      if (err instanceof Unbuildable) return;
      // The runner logs it; the requester sees only the message above.
      throw new Error(
        `workspace export ${file.id}, attempt ${file.attempts}: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }

  /** Builds the oldest due export, if any. */
  async function buildNext(): Promise<number> {
    const startedMs = clock.now();
    const now = storedAt(startedMs);
    if (!(await anyExportDue(db, now))) return 0;
    const abandoned = await failAbandonedExports(
      db,
      now,
      MAX_BUILD_ATTEMPTS,
      `The export build was interrupted ${MAX_BUILD_ATTEMPTS} times`,
    );
    for (const id of abandoned) await removeLeftovers(dataDir, id, null);
    const leaseToken = randomBytes(12).toString('hex');
    const file = await claimPendingExport(
      db,
      database.dialect.engine,
      now,
      storedAt(startedMs + leaseMs),
      leaseToken,
      MAX_BUILD_ATTEMPTS,
    );
    if (!file) return abandoned.length;
    await build(file, leaseToken, startedMs);
    return abandoned.length + 1;
  }

  return {
    name: 'workspace-exports',
    // Inside `serve`, a requested file starts building as soon as its request commits, not at the poll.
    wakeWhen: (wake) => whenWorkQueued(EXPORT_FILE_QUEUE, wake),
    async sweep() {
      return (await expire()) + (await buildNext());
    },
  };
}
