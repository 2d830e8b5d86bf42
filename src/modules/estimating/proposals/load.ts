// Reads what a proposal's document is built from and builds it (document.ts): the workspace, the
// job, the preparer (who sent it, else who made it) and the photos. The page, the PDF and the
// acceptance all come through here, so they show and sign the same document.
import type { Executor } from '#db/dialect.ts';
import type { Proposal } from '#db/tables.ts';
import { settingsOf } from '#platform/workspace.ts';
import { buildDocument, type ProposalDocument } from './document.ts';
import { proposalPhotos } from './repo.ts';
import { contentOf, pricedOfRow } from './stored.ts';
import { sectionsOf } from './sections.ts';

export interface PhotoFile {
  id: number;
  storage_key: string;
  thumbnail_key: string | null;
  content_type: string;
}

export interface LoadedDocument {
  document: ProposalDocument;
  /** The stored objects of the document's photos, by photo id. */
  photoFiles: Map<number, PhotoFile>;
  /** The workspace's logo when the document shows it. */
  logoFile: LogoFile | null;
}

export interface LogoFile {
  storage_key: string;
  content_type: string;
}

const LOGO_TYPES = ['image/png', 'image/jpeg'];

/**
 * The workspace's logo (settings.logo_file_id): a PNG or JPEG of its Company Library. A setting
 * naming anything else (another workspace's file, a job file, a PDF, a deleted file) shows no logo.
 */
export async function workspaceLogo(db: Executor, firmId: number): Promise<LogoFile | null> {
  const firm = await db.selectFrom('firms').select('settings').where('id', '=', firmId).executeTakeFirstOrThrow();
  const id = settingsOf(firm).logo_file_id;
  if (id === null) return null;
  const file = await db
    .selectFrom('files')
    .select(['storage_key', 'content_type'])
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .where('source', '=', 'library')
    .executeTakeFirst();
  return file && LOGO_TYPES.includes(file.content_type) ? file : null;
}

export async function loadDocument(db: Executor, proposal: Proposal): Promise<LoadedDocument> {
  const sections = sectionsOf(proposal.sections);
  const [firm, job, preparer, photos, logo] = await Promise.all([
    db.selectFrom('firms').select(['name']).where('id', '=', proposal.firm_id).executeTakeFirstOrThrow(),
    db.selectFrom('jobs').select(['name', 'address']).where('id', '=', proposal.job_id).executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select(['name', 'email', 'phone_number'])
      .where('id', '=', proposal.sent_by_user_id ?? proposal.created_by_user_id ?? -1)
      .executeTakeFirst(),
    sections.show_photos ? proposalPhotos(db, proposal.job_id, sections.photo_ids) : Promise.resolve([]),
    sections.display.show_firm_logo ? workspaceLogo(db, proposal.firm_id) : Promise.resolve(null),
  ]);
  const document = buildDocument({
    proposal,
    content: contentOf(proposal),
    sections,
    priced: pricedOfRow(proposal),
    firm: { name: firm.name, logo: logo !== null },
    preparedBy: preparer ? { name: preparer.name, email: preparer.email, phone: preparer.phone_number } : null,
    job: { name: job.name, address: job.address },
    photos: photos.map((p) => ({ id: p.id, title: p.title, caption: p.caption, taken_on: p.taken_at.slice(0, 10) })),
  });
  return { document, photoFiles: new Map(photos.map((p) => [p.id, p])), logoFile: logo };
}

/**
 * What the page and the PDF show: the document the customer signed once accepted (kept with the signature,
 * so later edits never change it), else the current one. Photos of a signed document are looked up
 * by its ids; a photo deleted since is simply not drawn.
 */
export async function shownDocument(db: Executor, p: Proposal): Promise<LoadedDocument> {
  if (p.status !== 'accepted' || p.signed_document === null) return loadDocument(db, p);
  const document = JSON.parse(p.signed_document) as ProposalDocument;
  const ids = document.sections.flatMap((s) => (s.id === 'photos' ? s.photos.map((ph) => ph.id) : []));
  const rows = ids.length > 0 ? await proposalPhotos(db, p.job_id, ids) : [];
  const logoFile = document.firm.logo ? await workspaceLogo(db, p.firm_id) : null;
  return { document, photoFiles: new Map(rows.map((r) => [r.id, r])), logoFile };
}
