// The fields a merge compares, and the rule that settles them (document 2, Search and merge:
// "Field values keep the surviving record's unless it is blank").
//
// A choice is about the KEPT record's value: `keep` keeps it, `drop` drops it for the merged-away
// record's value, `both` (a contact's phone and email) keeps it and adds the merged-away value
// as an extra channel. Without a choice a field is `keep` when the kept value is not blank, else
// `drop`, which is exactly the spec's rule.
import type { ClientAccount, CustomFieldDefinition, Location } from '#db/tables.ts';
import { badRequest } from '#platform/errors.ts';
import { isBlank } from '#platform/records.ts';
import type { ContactRow } from '#crm/contacts/repo.ts';
import type { RecordMergeKind } from '#src/area.ts';

export type Choice = 'keep' | 'drop' | 'both';

interface FieldSpec<R> {
  field: string;
  label: string;
  /** The wire value, compared between the two records. */
  value(row: R): unknown;
  /** Columns copied from the merged-away record when its value wins. */
  columns: string[];
  canKeepBoth?: boolean;
  /** Blank test when not the usual null/empty text (a false flag counts as blank). */
  blank?(v: unknown): boolean;
}

const text = <R>(field: string, label: string, extra: Partial<FieldSpec<R>> = {}): FieldSpec<R> => ({
  field,
  label,
  value: (r) => (r as Record<string, unknown>)[field] ?? null,
  columns: [field],
  ...extra,
});

const CUSTOMER_FIELDS: FieldSpec<ClientAccount>[] = [
  text('name', 'Name', { columns: ['name', 'name_key'] }),
  text('email', 'Email'),
  text('phone', 'Phone'),
  text('address', 'Address'),
  text('notes', 'Notes'),
];

const CONTACT_FIELDS: FieldSpec<ContactRow>[] = [
  text('name', 'Name'),
  text('title', 'Title'),
  text('contact_type', 'Contact type'),
  // The company shows as the linked customer's name (else the company text); both columns move together.
  {
    field: 'company',
    label: 'Company',
    value: (r) => r.ca_name ?? (isBlank(r.company) ? null : r.company),
    columns: ['company', 'client_account_id'],
  },
  text('email', 'Email', { canKeepBoth: true }),
  text('phone', 'Phone', { canKeepBoth: true }),
  text('notes', 'Notes'),
  text('assigned_user_id', 'Assigned to'),
  text('preferred_channel', 'Preferred channel'),
  text('birthday', 'Birthday'),
  {
    field: 'do_not_contact',
    label: 'Do not contact',
    value: (r) => r.do_not_contact === 1,
    columns: ['do_not_contact', 'do_not_contact_reason'],
    blank: (v) => v !== true,
  },
];

const SITE_FIELDS: FieldSpec<Location>[] = [
  text('name', 'Name'),
  text('address', 'Address', { columns: ['address', 'address_key'] }),
  text('client_account_id', 'Customer'),
  text('property_reference', 'Property ID'),
  text('notes', 'Notes'),
];

const SPECS: Record<RecordMergeKind, FieldSpec<any>[]> = {
  client_account: CUSTOMER_FIELDS,
  contact: CONTACT_FIELDS,
  location: SITE_FIELDS,
};

export const CUSTOM_FIELD_ENTITY = { client_account: 'account', contact: 'contact', location: 'location' } as const;

export interface FieldDiff {
  field: string;
  label: string;
  keep_value: unknown;
  merge_away_value: unknown;
  needs_choice: boolean;
  default: 'keep' | 'drop';
  can_keep_both: boolean;
}

type Row = { custom_fields: string } & Record<string, unknown>;

function customValues(row: Row): Record<string, unknown> {
  try {
    const v = JSON.parse(row.custom_fields) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One merge's comparison: the differing fields and how choices settle them. */
export class MergeFields {
  readonly diffs: FieldDiff[] = [];
  /** Every field a choice may name (differing or not). */
  private readonly known = new Set<string>();
  private readonly specs: FieldSpec<any>[];
  private readonly keptCustom: Record<string, unknown>;
  private readonly awayCustom: Record<string, unknown>;

  constructor(
    kind: RecordMergeKind,
    kept: Row,
    private readonly away: Row,
    defs: CustomFieldDefinition[],
  ) {
    this.specs = SPECS[kind];
    for (const spec of this.specs) {
      this.known.add(spec.field);
      const k = spec.value(kept);
      const a = spec.value(away);
      const blank = spec.blank ?? isBlank;
      const kv = blank(k) ? (spec.blank ? k : null) : k;
      const av = blank(a) ? (spec.blank ? a : null) : a;
      if (same(kv, av)) continue;
      this.diffs.push({
        field: spec.field,
        label: spec.label,
        keep_value: kv,
        merge_away_value: av,
        needs_choice: !blank(k) && !blank(a),
        default: blank(k) ? 'drop' : 'keep',
        can_keep_both: spec.canKeepBoth === true,
      });
    }
    this.keptCustom = customValues(kept);
    this.awayCustom = customValues(away);
    const labels = new Map(defs.map((d) => [d.key, d.label]));
    const keys = [...defs.map((d) => d.key)];
    for (const key of [...Object.keys(this.keptCustom), ...Object.keys(this.awayCustom)])
      if (!keys.includes(key)) keys.push(key);
    for (const key of keys) {
      const field = `custom:${key}`;
      this.known.add(field);
      const k = isBlank(this.keptCustom[key]) ? null : this.keptCustom[key];
      const a = isBlank(this.awayCustom[key]) ? null : this.awayCustom[key];
      if (same(k, a)) continue;
      this.diffs.push({
        field,
        label: labels.get(key) ?? key,
        keep_value: k,
        merge_away_value: a,
        needs_choice: k !== null && a !== null,
        default: k === null ? 'drop' : 'keep',
        can_keep_both: false,
      });
    }
  }

  /**
   * Checks the caller's choices (400 naming unknown fields, or `both` where a field cannot keep
   * both) and returns the choice of every differing field.
   */
  resolve(choices: Record<string, Choice> = {}): Record<string, Choice> {
    const unknown = Object.keys(choices).filter((f) => !this.known.has(f));
    if (unknown.length > 0) {
      throw badRequest('Unknown fields in choices', {
        code: 'unknown_choice_fields',
        fields: unknown,
        message: `choices names fields a merge does not compare: ${unknown.join(', ')}`,
      });
    }
    const both = Object.keys(choices).filter(
      (f) => choices[f] === 'both' && !this.specs.some((s) => s.field === f && s.canKeepBoth),
    );
    if (both.length > 0) {
      throw badRequest('Invalid choice', {
        code: 'invalid_choice',
        fields: both,
        message: `only a contact's phone and email can keep both values; not ${both.join(', ')}`,
      });
    }
    const out: Record<string, Choice> = {};
    for (const d of this.diffs) out[d.field] = choices[d.field] ?? d.default;
    return out;
  }

  /** Whether the merged-away value wins for a field under `choice`. */
  awayValueWins(field: string, choice: Choice): boolean {
    if (choice === 'drop') return true;
    if (choice === 'keep') return false;
    const diff = this.diffs.find((d) => d.field === field)!;
    return diff.keep_value === null;
  }

  /** The kept record's column changes the resolved choices make (custom_fields included). */
  changes(resolved: Record<string, Choice>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const spec of this.specs) {
      const choice = resolved[spec.field];
      if (choice === undefined || !this.awayValueWins(spec.field, choice)) continue;
      for (const c of spec.columns) out[c] = this.away[c];
    }
    const custom = { ...this.keptCustom };
    let customChanged = false;
    for (const [field, choice] of Object.entries(resolved)) {
      if (!field.startsWith('custom:') || choice !== 'drop') continue;
      const key = field.slice('custom:'.length);
      if (isBlank(this.awayCustom[key])) delete custom[key];
      else custom[key] = this.awayCustom[key];
      customChanged = true;
    }
    if (customChanged) out.custom_fields = JSON.stringify(custom);
    return out;
  }
}
