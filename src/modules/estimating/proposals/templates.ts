// Proposal templates (document 3: GET /v1/proposal-templates lists saved templates with string
// ids; POST …/apply-template applies layout and pages to a draft). A template is a layout: the
// section order, the pages switched on, the display switches, the photo layout and the accent
// colour; never wording or prices. Every workspace has the starter set (defined here, so a new
// starter reaches every workspace at once); a workspace saves its own from a proposal it likes
// (POST /v1/proposal-templates with proposal_id), listed after the starters with ids `tpl_<n>`.
import type { ProposalTemplate } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { now, zWire } from '#platform/time.ts';
import type { TemplateObject } from './schemas.ts';
import { DEFAULT_ACCENT, defaultSections, SECTION_IDS, sectionsOf, type ProposalSections } from './sections.ts';
import { assertEditable, assertPricingAccess, proposalOr404, writtenProposal } from './service.ts';

export type ProposalLayout = Pick<
  ProposalSections,
  'section_order' | 'pages' | 'display' | 'photo_layout' | 'show_photos' | 'accent_color'
>;

function layoutOf(s: ProposalSections): ProposalLayout {
  return {
    section_order: s.section_order,
    pages: s.pages,
    display: s.display,
    photo_layout: s.photo_layout,
    show_photos: s.show_photos,
    accent_color: s.accent_color,
  };
}

const base = layoutOf(defaultSections());

interface Starter {
  id: string;
  name: string;
  description: string;
  layout: ProposalLayout;
}

/** The starter set. Changing one changes it for every workspace (they are not copied). */
export const STARTER_TEMPLATES: readonly Starter[] = [
  {
    id: 'standard',
    name: 'Standard',
    description: 'Cover, overview, about us, scope, what to expect, itemized pricing, photos, terms and acceptance.',
    layout: base,
  },
  {
    id: 'lump_sum',
    name: 'Lump sum',
    description: 'One price for the whole job: lines listed without prices, the total shown once.',
    layout: {
      ...base,
      display: { ...base.display, lump_sum_pricing: true, show_unit_price_column: false, show_quantity_column: true },
    },
  },
  {
    id: 'detailed',
    name: 'Detailed',
    description: 'Numbered lines with quantities and unit prices, grouped lines shown one by one, large photos.',
    layout: {
      ...base,
      display: { ...base.display, show_line_numbers: true, group_lines_separately: true, show_photo_dates: true },
      photo_layout: 'detail',
    },
  },
  {
    id: 'simple',
    name: 'Simple',
    description: 'No cover or about-us page, no photos: scope, pricing, terms and acceptance on a few pages.',
    layout: {
      ...base,
      section_order: [
        'scope',
        'pricing',
        'terms',
        'acceptance',
        ...SECTION_IDS.filter((s) => !['scope', 'pricing', 'terms', 'acceptance'].includes(s)),
      ],
      pages: { ...base.pages, cover: false, about: false, overview: false, service_info: false, photos: false },
      show_photos: false,
      accent_color: DEFAULT_ACCENT,
    },
  },
];

const savedId = (t: Pick<ProposalTemplate, 'id'>) => `tpl_${t.id}`;

function savedObject(t: ProposalTemplate): TemplateObject {
  return {
    id: savedId(t),
    name: t.name,
    description: t.description,
    starter: false,
    layout: { ...base, ...(JSON.parse(t.layout) as Partial<ProposalLayout>) },
    created_at: zWire(t.created_at),
    updated_at: zWire(t.updated_at),
  };
}

/** Starters carry the release date of the set as their timestamps. */
const STARTERS_AT = '2026-11-24T00:00:00Z';

function starterObject(s: Starter): TemplateObject {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    starter: true,
    layout: s.layout,
    created_at: STARTERS_AT,
    updated_at: STARTERS_AT,
  };
}

export async function listTemplates(ctx: ServiceContext): Promise<TemplateObject[]> {
  const saved = await ctx.database.db
    .selectFrom('proposal_templates')
    .selectAll()
    .where('firm_id', '=', ctx.auth.firm.id)
    .orderBy('id')
    .execute();
  return [...STARTER_TEMPLATES.map(starterObject), ...saved.map(savedObject)];
}

async function templateById(ctx: ServiceContext, id: string): Promise<TemplateObject | null> {
  const starter = STARTER_TEMPLATES.find((s) => s.id === id);
  if (starter) return starterObject(starter);
  const m = /^tpl_(\d{1,10})$/.exec(id);
  if (!m) return null;
  const row = await ctx.database.db
    .selectFrom('proposal_templates')
    .selectAll()
    .where('firm_id', '=', ctx.auth.firm.id)
    .where('id', '=', Number(m[1]))
    .executeTakeFirst();
  return row ? savedObject(row) : null;
}

/** POST /v1/proposals/{id}/apply-template: the template's layout on a draft; wording and prices stay. */
export async function applyTemplate(ctx: ServiceContext, id: number, templateId: string, origin: string) {
  assertPricingAccess(ctx);
  const template = await templateById(ctx, templateId);
  if (!template)
    throw badRequest(`Unknown template_id: ${templateId}`, {
      code: 'unknown_template',
      field: 'template_id',
      message: 'Template ids come from GET /v1/proposal-templates',
    });
  await inWorkspaceTransaction(ctx, async (trx) => {
    const p = await proposalOr404(ctx, trx, id);
    assertEditable(p);
    const sections = sectionsOf(p.sections);
    // A custom section keeps its place after the template's order.
    const customs = sections.section_order.filter((s) => s.startsWith('custom:'));
    const next: ProposalSections = {
      ...sections,
      ...template.layout,
      section_order: [...template.layout.section_order, ...customs],
    };
    await trx
      .updateTable('proposals')
      .set({ sections: JSON.stringify(next), template_id: template.id, updated_at: now() })
      .where('id', '=', p.id)
      .execute();
  });
  return writtenProposal(ctx, id, origin);
}

/** POST /v1/proposal-templates: saves a proposal's layout as the workspace's own template. */
export async function saveTemplate(
  ctx: ServiceContext,
  input: { name: string; description?: string | null; proposal_id: number },
): Promise<TemplateObject> {
  assertPricingAccess(ctx);
  const p = await proposalOr404(ctx, ctx.database.db, input.proposal_id);
  const layout = layoutOf(sectionsOf(p.sections));
  const row = await inWorkspaceTransaction(ctx, async (trx) => {
    const t = now();
    const inserted = await trx
      .insertInto('proposal_templates')
      .values({
        firm_id: ctx.auth.firm.id,
        // The key is set from the id once known: a placeholder unique per insert keeps the index happy.
        template_key: `pending:${t}:${ctx.auth.user.id}`,
        name: input.name.trim(),
        description: input.description?.trim() || null,
        layout: JSON.stringify({
          ...layout,
          section_order: layout.section_order.filter((s) => !s.startsWith('custom:')),
        }),
        starter: 0,
        created_by_user_id: ctx.auth.user.id,
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('proposal_templates')
      .set({ template_key: savedId(inserted) })
      .where('id', '=', inserted.id)
      .execute();
    return { ...inserted, template_key: savedId(inserted) };
  });
  return savedObject(row);
}
