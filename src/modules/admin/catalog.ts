// A workspace's catalog as one document, for the operator: import (merge or replace) and export.
// The document's rules are in #estimating/catalog/document.ts.
import type { Database } from '#db/database.ts';
import { inFirmTransaction } from '#platform/context.ts';
import { invalidField } from '#platform/errors.ts';
import { applyCatalog, exportCatalog as catalogDocument } from '#estimating/index.ts';
import { firmOrThrow } from './shared.ts';

/**
 * Imports a catalog document (src/modules/estimating/catalog/document.ts) into a workspace: everything is
 * validated first and nothing is written on any error.
 */
export async function importCatalog(database: Database, firmId: number, body: unknown, mode: unknown = 'merge') {
  if (mode !== 'merge' && mode !== 'replace') throw invalidField('mode', 'mode must be merge or replace');
  return inFirmTransaction(database, firmId, async (trx) => {
    await firmOrThrow(trx, firmId);
    return applyCatalog(trx, firmId, body, mode);
  });
}

/** The workspace's active catalog as an import document. */
export async function exportCatalog(database: Database, firmId: number) {
  await firmOrThrow(database.db, firmId);
  return catalogDocument(database.db, firmId);
}
