// Where workspace export files live: `<dataDir>/exports/`. A build writes
// `<id>-<lease>.zip.partial` and renames it to `<id>-<lease>.zip` only once complete, and the row
// names that final file only after the rename, so a crash leaves at most a .partial that nothing
// serves (removed once the export is settled). The lease token in the name keeps two builds of
// one export (a stalled one and its replacement) from writing the same file.
import fs from 'node:fs';
import path from 'node:path';

export function exportsDir(dataDir: string): string {
  return path.join(dataDir, 'exports');
}

export function zipName(exportId: number, leaseToken: string): string {
  return `${exportId}-${leaseToken}.zip`;
}

export function partialPath(dataDir: string, fileName: string): string {
  return path.join(exportsDir(dataDir), `${fileName}.partial`);
}

export function finalPath(dataDir: string, fileName: string): string {
  return path.join(exportsDir(dataDir), fileName);
}

/**
 * Removes every file of an export except `keep` (the ready file, or null for none): what crashed
 * or stalled builds left. Called only once the export is settled (ready, failed or expired), so
 * it never pulls a file from under a build that could still win.
 */
export async function removeLeftovers(dataDir: string, exportId: number, keep: string | null): Promise<void> {
  let names: string[];
  try {
    names = await fs.promises.readdir(exportsDir(dataDir));
  } catch {
    return;
  }
  const prefix = `${exportId}-`;
  await Promise.all(
    names.filter((n) => n.startsWith(prefix) && n !== keep).map((n) => removeFile(path.join(exportsDir(dataDir), n))),
  );
}

/** Best effort: cleaning up must never hide the failure that made the cleanup necessary. */
export async function removeFile(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true }).catch(() => {});
}
