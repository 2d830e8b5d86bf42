// GET /v1/proposals/{id}/pdf: the proposal as a PDF (pdf.ts renders it). An accepted proposal is
// rendered from the document the customer signed (kept with the signature), with the signature
// block, so the PDF shows what was signed even if the estimate or the photos changed since. The
// acceptance renders its executed PDF through renderLoadedPdf too; the customer's page offers that
// executed copy (executedPdf).
import type { Executor } from '#db/dialect.ts';
import { ObjectNotFound } from '#platform/storage/errors.ts';
import { zWire } from '#platform/time.ts';
import type { ServiceContext } from '#platform/context.ts';
import type { Storage } from '#platform/storage/storage.ts';
import { shownDocument, type LoadedDocument } from './load.ts';
import { renderProposalPdf, type SignatureBlock } from './pdf.ts';
import { pdfLogoBytes, pdfPhotoBytes } from './pdf-photos.ts';
import { proposalOr404 } from './service.ts';
import type { Proposal } from '#db/tables.ts';

/** A drawn signature kept as a PNG data URL, as bytes. */
export function signaturePng(dataUrl: string | null): Buffer | null {
  if (dataUrl === null) return null;
  const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  return m ? Buffer.from(m[1], 'base64') : null;
}

export function signatureBlockOf(p: Proposal): SignatureBlock | null {
  if (p.status !== 'accepted' || p.signer_name === null || p.signed_at === null || p.document_sha256 === null)
    return null;
  return {
    signer_name: p.signer_name,
    signer_email: p.signer_email ?? '',
    signed_at: zWire(p.signed_at),
    document_sha256: p.document_sha256,
    consent_version: p.consent_version ?? '',
    image_png: signaturePng(p.signature_image),
  };
}

export const pdfFilename = (p: Pick<Proposal, 'doc_number' | 'id' | 'status'>) =>
  `proposal-${p.doc_number ?? p.id}${p.status === 'accepted' ? '-signed' : ''}.pdf`;

/** The PDF of a loaded document: its photos and logo read from storage, then rendered. */
export async function renderLoadedPdf(
  storage: Storage,
  loaded: LoadedDocument,
  signature: SignatureBlock | null,
): Promise<Buffer> {
  const [photos, logo] = await Promise.all([
    pdfPhotoBytes(storage, loaded.photoFiles),
    pdfLogoBytes(storage, loaded.logoFile),
  ]);
  return renderProposalPdf({ document: loaded.document, photos, signature, logo });
}

/** The PDF of what the customer sees: the signed document once accepted (load.ts, shownDocument). */
export async function proposalPdf(ctx: ServiceContext, id: number): Promise<{ filename: string; body: Buffer }> {
  const p = await proposalOr404(ctx, ctx.database.db, id);
  const loaded = await shownDocument(ctx.database.db, p);
  return { filename: pdfFilename(p), body: await renderLoadedPdf(ctx.deps.storage, loaded, signatureBlockOf(p)) };
}

/**
 * The executed PDF of an accepted proposal as the customer downloads it from the page: the copy
 * stored at acceptance (the job's executed_proposal file), else, when the office deleted that file,
 * the same document made again from what was signed. Null before acceptance.
 */
export async function executedPdf(
  db: Executor,
  storage: Storage,
  p: Proposal,
): Promise<{ filename: string; body: Buffer } | null> {
  const signature = signatureBlockOf(p);
  if (signature === null) return null;
  const filename = pdfFilename(p);
  if (p.executed_file_id !== null) {
    const file = await db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', p.executed_file_id)
      .where('firm_id', '=', p.firm_id)
      .executeTakeFirst();
    if (file)
      try {
        return { filename, body: Buffer.concat(await (await storage.get(file.storage_key)).toArray()) };
      } catch (err) {
        if (!(err instanceof ObjectNotFound)) throw err;
      }
  }
  return { filename, body: await renderLoadedPdf(storage, await shownDocument(db, p), signature) };
}
