// GET /v1/proposals/{id}/pdf: the proposal as a PDF (pdf.ts renders it). An accepted proposal is
// rendered from the document the customer signed (kept with the signature), with the signature
// block, so the PDF shows what was signed even if the estimate or the photos changed since. The
// acceptance renders its executed PDF through renderLoadedPdf too.
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
