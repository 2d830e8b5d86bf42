// The setup rules of custom field definitions (document 2, Custom field definition and Custom
// fields): entity and field types, sections per entity, keys from labels, dropdown options.
import type { CustomFieldEntity } from '#db/tables.ts';

/** In the order the spec names them; lists sort by it. */
export const ENTITY_TYPES = ['job', 'account', 'contact', 'location'] as const satisfies readonly CustomFieldEntity[];
export const FIELD_TYPES = ['text', 'number', 'date', 'select', 'checkbox', 'url'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Section values per entity; the first is not the default, DEFAULT_SECTION says which is. */
export const SECTIONS: Record<CustomFieldEntity, readonly string[]> = {
  job: ['job_location', 'company_contact', 'job_details'],
  account: ['company_profile', 'billing', 'company_notes'],
  contact: ['contact_identity', 'communication', 'contact_notes'],
  location: ['location_identity', 'property_context', 'location_notes'],
};

export const DEFAULT_SECTION: Record<CustomFieldEntity, string> = {
  job: 'job_details',
  account: 'company_profile',
  contact: 'contact_identity',
  location: 'location_identity',
};

/** Entities whose fields can be list filters (the resource: "Jobs, customers, contacts only"). */
export const FILTERABLE_ENTITIES: readonly CustomFieldEntity[] = ['job', 'account', 'contact'];

export const LABEL_MAX = 120;

/**
 * The key a label gets: lower-case ASCII letters and digits, anything else one underscore,
 * accents dropped ("Gate code #" → gate_code, "Café size" → cafe_size); "field" when nothing is left.
 */
export function slugOf(label: string): string {
  const slug = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return slug === '' ? 'field' : slug;
}

/** The first of base, base_2, base_3 ... that no field of the entity holds. */
export function freeKey(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** Options trimmed, blanks dropped, repeats (in any case) dropped keeping the first spelling. */
export function cleanOptions(options: readonly string[] | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of options ?? []) {
    const option = raw.trim();
    const k = option.toLowerCase();
    if (option === '' || seen.has(k)) continue;
    seen.add(k);
    out.push(option);
  }
  return out;
}
