// Reads what a proposal's document is built from and builds it (document.ts): the workspace, the
// job, the preparer (who sent it, else who made it) and the photos. The page, the PDF and the
// acceptance all come through here, so they show and sign the same document.
import type { Executor } from '#db/dialect.ts';
import type { Proposal } from '#db/tables.ts';
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
}

export async function loadDocument(db: Executor, proposal: Proposal): Promise<LoadedDocument> {
  const sections = sectionsOf(proposal.sections);
  const [firm, job, preparer, photos] = await Promise.all([
    db.selectFrom('firms').select(['name']).where('id', '=', proposal.firm_id).executeTakeFirstOrThrow(),
    db.selectFrom('jobs').select(['name', 'address']).where('id', '=', proposal.job_id).executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select(['name', 'email', 'phone_number'])
      .where('id', '=', proposal.sent_by_user_id ?? proposal.created_by_user_id ?? -1)
      .executeTakeFirst(),
    sections.show_photos ? proposalPhotos(db, proposal.job_id, sections.photo_ids) : Promise.resolve([]),
  ]);
  const document = buildDocument({
    proposal,
    content: contentOf(proposal),
    sections,
    priced: pricedOfRow(proposal),
    firm: { name: firm.name, logo: false },
    preparedBy: preparer ? { name: preparer.name, email: preparer.email, phone: preparer.phone_number } : null,
    job: { name: job.name, address: job.address },
    photos: photos.map((p) => ({ id: p.id, title: p.title, caption: p.caption, taken_on: p.taken_at.slice(0, 10) })),
  });
  return { document, photoFiles: new Map(photos.map((p) => [p.id, p])) };
}
