// A proposal's layout and editable sections (document 3, Proposal `sections` and the section edit
// inputs): the about-us, scope and terms sections (whose bodies are the content's intro_html,
// scope_html and terms_html), up to 32 custom sections, the order the sections appear in, which
// pages are on, the display switches, deposit and payment terms, photos and the accent colour.
import type { ContentField } from './content.ts';

/** The built-in sections, in their default order; a custom section's id is `custom:<id>`. */
export const SECTION_IDS = [
  'overview',
  'about',
  'scope',
  'service_info',
  'pricing',
  'photos',
  'authorization',
  'terms',
  'acceptance',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** Pages that can be switched off: the cover, the (not yet supplied) video, and each section. */
export const PAGE_IDS = ['cover', 'video', ...SECTION_IDS] as const;
export type PageId = (typeof PAGE_IDS)[number];

export const DISPLAY_SWITCHES = [
  'show_firm_logo',
  'show_client_logo',
  'show_preparer_card',
  'show_scope_pin_details',
  'show_quantity_column',
  'show_unit_price_column',
  'show_line_numbers',
  'show_item_numbers',
  'tax_in_item_prices',
  'lump_sum_pricing',
  'group_lines_separately',
  'show_photo_titles',
  'show_photo_captions',
  'show_photo_dates',
] as const;
export type DisplaySwitch = (typeof DISPLAY_SWITCHES)[number];

export const PHOTO_LAYOUTS = ['detail', 'grid'] as const;
export type PhotoLayout = (typeof PHOTO_LAYOUTS)[number];

export const CUSTOM_SECTIONS_MAX = 32;
export const TERMS_ITEMS_MAX = 50;

export interface SectionItem {
  text: string;
  on: boolean;
}

export interface CustomSection {
  id: string;
  title: string;
  /** Plain text; blank lines separate paragraphs. */
  body: string | null;
  items: SectionItem[];
  enabled: boolean;
}

/** What `proposals.sections` stores. */
export interface ProposalSections {
  about_us: { title: string };
  scope: { title: string; intro: string | null };
  terms: { title: string; footer: string | null; items: SectionItem[] };
  custom_sections: CustomSection[];
  section_order: string[];
  pages: Record<PageId, boolean>;
  display: Record<DisplaySwitch, boolean>;
  deposit_percent: number | null;
  payment_due_days: number | null;
  /** [] is every photo of the job marked for reports. */
  photo_ids: number[];
  photo_layout: PhotoLayout;
  show_photos: boolean;
  accent_color: string;
}

/** Where each section's body lives in the content (the wire's body_html / notes_html aliases). */
export const SECTION_BODY: Record<'about_us' | 'scope' | 'terms', ContentField> = {
  about_us: 'intro_html',
  scope: 'scope_html',
  terms: 'terms_html',
};

export const DEFAULT_TERMS_ITEMS: readonly string[] = [
  'Prices are valid until the date shown on this proposal.',
  'Work is scheduled after this proposal is signed; weather may move the date, and we will tell you when it does.',
  'Keep vehicles and people off the work area until we say it is ready.',
  'Payment is due as stated in the payment terms; a deposit, when asked for, is due on acceptance.',
  'Anything not described in the scope is not included and would be priced as a change order.',
];

export const DEFAULT_ACCENT = '#1f4e79';

export function defaultSections(): ProposalSections {
  return {
    about_us: { title: 'About us' },
    scope: { title: 'Scope of work', intro: null },
    terms: {
      title: 'Terms and conditions',
      footer: null,
      items: DEFAULT_TERMS_ITEMS.map((text) => ({ text, on: true })),
    },
    custom_sections: [],
    section_order: [...SECTION_IDS],
    pages: Object.fromEntries(PAGE_IDS.map((p) => [p, p !== 'video'])) as Record<PageId, boolean>,
    display: {
      show_firm_logo: true,
      show_client_logo: false,
      show_preparer_card: true,
      show_scope_pin_details: false,
      show_quantity_column: true,
      show_unit_price_column: true,
      show_line_numbers: false,
      show_item_numbers: false,
      tax_in_item_prices: false,
      lump_sum_pricing: false,
      group_lines_separately: false,
      show_photo_titles: true,
      show_photo_captions: true,
      show_photo_dates: false,
    },
    deposit_percent: null,
    payment_due_days: 30,
    photo_ids: [],
    photo_layout: 'grid',
    show_photos: true,
    accent_color: DEFAULT_ACCENT,
  };
}

/** Stored sections over the defaults, so a layout saved before a new switch existed still reads. */
export function sectionsOf(stored: string): ProposalSections {
  const base = defaultSections();
  const s = JSON.parse(stored) as Partial<ProposalSections>;
  return {
    ...base,
    ...s,
    pages: { ...base.pages, ...s.pages },
    display: { ...base.display, ...s.display },
  };
}

/**
 * Every section the proposal shows, in order: the stored order first (ids no longer known are
 * skipped), then any built-in or enabled custom section it does not name, in default order.
 */
export function orderedSections(s: ProposalSections): string[] {
  const known = new Set<string>([...SECTION_IDS, ...s.custom_sections.map((c) => `custom:${c.id}`)]);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of [...s.section_order, ...SECTION_IDS, ...s.custom_sections.map((c) => `custom:${c.id}`)]) {
    if (!known.has(id) || seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}
