// PATCH /v1/proposals/{id} (document 3, Proposals, and the section edit inputs): every field sent
// changes, the rest stays. HTML is cleaned; each of about_us.body_html, scope.notes_html and
// terms.body_html is the same text as intro_html, scope_html and terms_html, so sending both forms
// of one is a 400. Only a draft changes (409 while out for signature, decided or void).
import type { Updateable } from 'kysely';
import type { DB } from '#db/tables.ts';
import { updateChanged } from '#db/update-changed.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { emailField } from '#platform/email-phone.ts';
import { badRequest, notFound } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { cleanHtml, type ContentField } from './content.ts';
import type { UpdateProposalInput } from './schemas.ts';
import { DEFAULT_TERMS_ITEMS, SECTION_IDS, sectionsOf, type CustomSection, type ProposalSections } from './sections.ts';
import { assertEditable, assertPricingAccess, assertValidDate, proposalOr404, writtenProposal } from './service.ts';
import { contentOf } from './stored.ts';

const ALIASES: [ContentField, 'about_us' | 'scope' | 'terms', 'body_html' | 'notes_html'][] = [
  ['intro_html', 'about_us', 'body_html'],
  ['scope_html', 'scope', 'notes_html'],
  ['terms_html', 'terms', 'body_html'],
];

/** The content fields an input sets, from either spelling (never both). */
function contentChanges(input: UpdateProposalInput): Partial<Record<ContentField, string | null>> {
  const out: Partial<Record<ContentField, string | null>> = {};
  for (const f of ['cover_html', 'closing_html'] as const) if (input[f] !== undefined) out[f] = cleanHtml(input[f]);
  for (const [field, section, part] of ALIASES) {
    const sectionInput = input[section] as Record<string, string | null | undefined> | undefined;
    const viaSection = sectionInput?.[part];
    if (input[field] !== undefined && viaSection !== undefined)
      throw badRequest(`Send ${field} or ${section}.${part}, not both`, {
        code: 'invalid_request',
        field,
        message: `${section}.${part} is the same text as ${field}`,
      });
    const value = input[field] !== undefined ? input[field] : viaSection;
    if (value !== undefined) out[field] = cleanHtml(value);
  }
  return out;
}

/** The inputs stored in the proposal's sections (the rest are columns or content). */
const SECTION_INPUTS = [
  'about_us',
  'scope',
  'terms',
  'custom_sections',
  'section_order',
  'pages',
  'display',
  'deposit_percent',
  'payment_due_days',
  'photo_ids',
  'photo_layout',
  'show_photos',
  'accent_color',
] as const satisfies readonly (keyof UpdateProposalInput)[];

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40) || 'section';

function customSections(input: NonNullable<UpdateProposalInput['custom_sections']>): CustomSection[] {
  const taken = new Set<string>();
  return input.map((c) => {
    let id = c.id ?? slug(c.title);
    if (c.id !== undefined && taken.has(id))
      throw badRequest(`custom_sections repeats the id ${id}`, { code: 'invalid_request', field: 'custom_sections' });
    for (let n = 2; taken.has(id); n++) id = `${slug(c.title).slice(0, 36)}_${n}`;
    taken.add(id);
    const body = c.body?.trim() ? c.body : null;
    return { id, title: c.title.trim(), body, items: c.items ?? [], enabled: c.enabled ?? true };
  });
}

function sectionChanges(input: UpdateProposalInput, s: ProposalSections): ProposalSections {
  const next: ProposalSections = structuredClone(s);
  if (input.about_us?.title !== undefined) next.about_us.title = input.about_us.title.trim();
  if (input.scope?.title !== undefined) next.scope.title = input.scope.title.trim();
  if (input.scope?.intro !== undefined) next.scope.intro = input.scope.intro?.trim() || null;
  if (input.terms) {
    const t = input.terms;
    if (t.title !== undefined) next.terms.title = t.title.trim();
    if (t.footer !== undefined) next.terms.footer = t.footer?.trim() || null;
    if (t.items !== undefined && t.reset === true)
      throw badRequest('Send terms.items or terms.reset, not both', { code: 'invalid_request', field: 'terms' });
    if (t.items !== undefined) next.terms.items = t.items.map((i) => ({ text: i.text.trim(), on: i.on }));
    if (t.reset === true) next.terms.items = DEFAULT_TERMS_ITEMS.map((text) => ({ text, on: true }));
  }
  if (input.custom_sections !== undefined) next.custom_sections = customSections(input.custom_sections);
  if (input.section_order !== undefined) {
    const known = new Set<string>([...SECTION_IDS, ...next.custom_sections.map((c) => `custom:${c.id}`)]);
    const seen = new Set<string>();
    for (const id of input.section_order) {
      if (!known.has(id))
        throw badRequest(`Unknown section in section_order: ${id}`, {
          code: 'unknown_section',
          field: 'section_order',
          message: `Sections are ${SECTION_IDS.join(', ')} and custom:<id> of a custom section`,
        });
      if (seen.has(id))
        throw badRequest(`section_order repeats ${id}`, { code: 'invalid_request', field: 'section_order' });
      seen.add(id);
    }
    next.section_order = input.section_order;
  }
  if (input.pages !== undefined) next.pages = { ...next.pages, ...input.pages };
  if (input.display !== undefined) next.display = { ...next.display, ...input.display };
  if (input.deposit_percent !== undefined) {
    const d = input.deposit_percent;
    if (d !== null && (d < 0 || d > 100 || Math.round(d * 100) !== d * 100))
      throw badRequest('deposit_percent must be from 0 to 100 (at most 2 decimals) or null', {
        code: 'invalid_request',
        field: 'deposit_percent',
      });
    next.deposit_percent = d;
  }
  if (input.payment_due_days !== undefined) next.payment_due_days = input.payment_due_days;
  if (input.photo_ids !== undefined) next.photo_ids = input.photo_ids;
  if (input.photo_layout !== undefined) next.photo_layout = input.photo_layout;
  if (input.show_photos !== undefined) next.show_photos = input.show_photos;
  if (input.accent_color !== undefined) next.accent_color = input.accent_color.toLowerCase();
  return next;
}

export async function updateProposal(ctx: ServiceContext, id: number, input: UpdateProposalInput, origin: string) {
  assertPricingAccess(ctx);
  const validUntil = input.valid_until === undefined ? undefined : assertValidDate(input.valid_until, 'valid_until');
  const clientEmail = emailField(input.client_email, 'client_email');
  const content = contentChanges(input);
  await inWorkspaceTransaction(ctx, async (trx) => {
    const p = await proposalOr404(ctx, trx, id);
    assertEditable(p);
    const sections = sectionChanges(input, sectionsOf(p.sections));
    if (input.photo_ids !== undefined && input.photo_ids.length > 0) {
      const found = await trx
        .selectFrom('photos')
        .select('id')
        .where('job_id', '=', p.job_id)
        .where('id', 'in', input.photo_ids)
        .execute();
      const have = new Set(found.map((r) => r.id));
      const missing = input.photo_ids.find((pid) => !have.has(pid));
      if (missing !== undefined) throw notFound('Photo not found on this job', { photo_id: missing });
    }
    // Content and sections are rewritten only when the body touches them, so an empty PATCH
    // (or the values already there) leaves the proposal and its updated_at alone.
    const changes: Updateable<DB['proposals']> = {};
    if (Object.keys(content).length > 0) changes.content = JSON.stringify({ ...contentOf(p), ...content });
    if (SECTION_INPUTS.some((k) => input[k] !== undefined)) changes.sections = JSON.stringify(sections);
    if (input.title !== undefined) changes.title = input.title.trim();
    if (input.client_name !== undefined) changes.client_name = input.client_name?.trim() || null;
    if (clientEmail !== undefined) changes.client_email = clientEmail;
    if (input.client_company !== undefined) changes.client_company = input.client_company?.trim() || null;
    if (validUntil !== undefined) {
      changes.valid_until = validUntil;
      // Moving valid_until later moves an earlier link expiry with it (document 3, PATCH …/link).
      if (validUntil !== null && p.link_expires_on !== null && p.link_expires_on < validUntil)
        changes.link_expires_on = validUntil;
    }
    await updateChanged(trx, 'proposals', p, changes, { stamp: { updated_at: now() } });
  });
  return writtenProposal(ctx, id, origin);
}
