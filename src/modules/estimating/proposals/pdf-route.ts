// GET /v1/proposals/{id}/pdf: the proposal as a PDF (pdf.ts renders it). An accepted proposal is
// rendered from the document the customer signed (kept with the signature), with the signature
// block, so the PDF shows what was signed even if the estimate or the photos changed since.
import { zWire } from '#platform/time.ts';
import type { ServiceContext } from '#platform/context.ts';
import type { ProposalDocument } from './document.ts';
import { loadDocument, workspaceLogo, type LogoFile, type PhotoFile } from './load.ts';
import { renderProposalPdf, type SignatureBlock } from './pdf.ts';
import { pdfLogoBytes, pdfPhotoBytes } from './pdf-photos.ts';
import { proposalPhotos } from './repo.ts';
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

export async function proposalPdf(ctx: ServiceContext, id: number): Promise<{ filename: string; body: Buffer }> {
  const db = ctx.database.db;
  const p = await proposalOr404(ctx, db, id);
  const signature = signatureBlockOf(p);
  let document: ProposalDocument;
  let photoFiles: Map<number, PhotoFile>;
  let logoFile: LogoFile | null;
  if (signature && p.signed_document !== null) {
    document = JSON.parse(p.signed_document) as ProposalDocument;
    const ids = document.sections.flatMap((s) => (s.id === 'photos' ? s.photos.map((ph) => ph.id) : []));
    const rows = ids.length > 0 ? await proposalPhotos(db, p.job_id, ids) : [];
    photoFiles = new Map(rows.map((r) => [r.id, r]));
    logoFile = document.firm.logo ? await workspaceLogo(db, p.firm_id) : null;
  } else {
    ({ document, photoFiles, logoFile } = await loadDocument(db, p));
  }
  const [photos, logo] = await Promise.all([
    pdfPhotoBytes(ctx.deps.storage, photoFiles),
    pdfLogoBytes(ctx.deps.storage, logoFile),
  ]);
  return { filename: pdfFilename(p), body: await renderProposalPdf({ document, photos, signature, logo }) };
}
