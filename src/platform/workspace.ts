// The workspace (firm) model that later areas gate on: settings with their defaults and parsing.
import { Type, type Static } from '@sinclair/typebox';
import type { Firm } from '#db/tables.ts';
import { Nullable, StringEnum } from './schemas.ts';

export const REQUIRED_JOB_FIELD_NAMES = ['address', 'company', 'job_type', 'source', 'contact_email'] as const;

const TerritoryRule = Type.Object(
  {
    user_id: Type.Integer({ minimum: 1 }),
    /** Five-digit ZIP codes; the address's last five-digit group is its ZIP. */
    zips: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]{5}$' }), { maxItems: 500 })),
    /** City names, any case; a comma-separated part of the address names the city. */
    cities: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200 })),
  },
  { additionalProperties: false },
);

const ServiceRule = Type.Object(
  {
    user_id: Type.Integer({ minimum: 1 }),
    /** Job types (any case): a lead asking for one of them goes to user_id. */
    job_types: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const LeadRoutingSchema = Type.Object(
  {
    /** The office users new leads rotate among; null rotates among every office user. */
    round_robin_user_ids: Nullable(Type.Array(Type.Integer({ minimum: 1 }), { uniqueItems: true, maxItems: 500 })),
    territory_rules: Type.Array(TerritoryRule, { maxItems: 200 }),
    service_rules: Type.Array(ServiceRule, { maxItems: 200 }),
  },
  { additionalProperties: false },
);
export type LeadRouting = Static<typeof LeadRoutingSchema>;

/** What a change-order stage means: it sets the change order's status (document 3, Change order). */
export const CHANGE_ORDER_STAGE_MEANINGS = ['working', 'sent', 'approved', 'declined'] as const;

export const ChangeOrderStageSchema = Type.Object(
  {
    key: Type.String({ pattern: '^[a-z0-9_]{1,50}$', description: 'lower-case letters, digits and _' }),
    label: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    meaning: StringEnum(CHANGE_ORDER_STAGE_MEANINGS),
  },
  { additionalProperties: false },
);
export type ChangeOrderStage = Static<typeof ChangeOrderStageSchema>;

export const SettingsSchema = Type.Object(
  {
    deletion_locked: Type.Boolean(),
    operations_enabled: Type.Boolean(),
    /**
     * The workspace's own change-order stages (GET /v1/change-order-stages), in order; null keeps the
     * defaults. Each meaning appears at least once: a change order sent, approved or declined moves
     * to the first stage of that meaning, and a new one starts in the first working stage.
     */
    change_order_stages: Nullable(
      Type.Array(ChangeOrderStageSchema, {
        minItems: 4,
        maxItems: 50,
        allOf: CHANGE_ORDER_STAGE_MEANINGS.map((meaning) => ({
          contains: { type: 'object', properties: { meaning: { const: meaning } }, required: ['meaning'] },
        })),
      }),
    ),
    crew_scheduling_enabled: Type.Boolean(),
    daily_log_signoff: Type.Boolean(),
    payroll_signoff: Type.Boolean(),
    required_job_fields: Type.Array(Type.Union(REQUIRED_JOB_FIELD_NAMES.map((n) => Type.Literal(n))), {
      uniqueItems: true,
    }),
    require_company_on_sites: Type.Boolean(),
    leads_pipeline: Type.Boolean(),
    jobs_from_connected_system: Type.Boolean(),
    capital_planning_enabled: Type.Boolean(),
    customer_portal_enabled: Type.Boolean(),
    /** Request payment online works (document 3: 409 Online payments not set up otherwise). */
    online_payments_connected: Type.Boolean(),
    /** A Stripe connected account (acct_…) the workspace's online payments go to; null is the server's own account. */
    stripe_account: Nullable(Type.String({ pattern: '^acct_[A-Za-z0-9]{1,64}$' })),
    remit_to: Type.Union([
      Type.Object(
        { name: Type.String({ maxLength: 200 }), address: Type.String({ maxLength: 500 }) },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    /** Photos the plan allows; null is unlimited. */
    photo_limit: Nullable(Type.Integer({ minimum: 0 })),
    /** The visibility of an uploaded photo that names none. */
    photo_default_visibility: Type.Union([Type.Literal('external'), Type.Literal('internal')]),
    /** Whether an uploaded external photo that does not say is marked for reports. */
    photo_include_in_report_default: Type.Boolean(),
    takeoff_credits: Type.Integer({ minimum: 0 }),
    /** The landscape edition: plan takeoffs use no takeoff credit (document 3, Landscape takeoffs, billing). */
    landscape_edition: Type.Boolean(),
    /** Minimum margin (fraction) below which issuing an estimate needs approval; null is off. */
    profit_floor_margin: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    // The workspace default of an estimate's `pricing` (document 3: null there means this).
    estimate_markup_method: Type.Union([Type.Literal('markup'), Type.Literal('margin')]),
    estimate_markup_rate: Type.Number({ minimum: 0, maximum: 10 }),
    estimate_contingency_rate: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    estimate_tax_rate: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    estimate_minimum_charge: Nullable(Type.Number({ minimum: 0, maximum: 1e9 })),
    /** Trucking hauls: one-way plant/dump driving hours and load-and-dump hours per load, unless a line says otherwise. */
    haul_drive_hr: Type.Number({ minimum: 0, maximum: 24 }),
    haul_load_unload_hr: Type.Number({ minimum: 0, maximum: 24 }),
    /** Tons per load when the truck's catalog item gives no capacity_tons. */
    haul_truck_capacity_tons: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
    /** The asphalt plant trucks load at: the start of automatic driving times. */
    plant_address: Nullable(Type.String({ maxLength: 500 })),
    /** Minutes a new lead may wait for a first contact: the Call new lead follow-up is due then, and the owner is alerted after. */
    speed_to_lead_minutes: Type.Integer({ minimum: 1, maximum: 10_080 }),
    /** The property types a lead may name (POST /v1/leads property_type, any case). */
    property_types: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 50, uniqueItems: true }),
    /** Who a new lead goes to (docs/api-decisions.md, "Leads"): territory, then service, then round-robin. */
    lead_routing: LeadRoutingSchema,
    /** The job stage (key) an accepted proposal moves its job to; null is the pipeline's first won stage. */
    proposal_acceptance_stage: Nullable(Type.String({ minLength: 1, maxLength: 100 })),
    /** The workspace's logo on proposals: a PNG or JPEG in its Company Library (a library file id); null for none. */
    logo_file_id: Nullable(Type.Integer({ minimum: 1 })),
    /** The first day of the workspace's week in its time zone: overtime is counted per worker-week. */
    week_start: Type.Union([Type.Literal('monday'), Type.Literal('sunday')]),
    /** The workspace's plan includes premium imagery (condition ratings' imagery_source premium; else 403 upgrade_required). */
    premium_imagery_enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);

export type Settings = Static<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  deletion_locked: false,
  operations_enabled: false,
  change_order_stages: null,
  crew_scheduling_enabled: false,
  daily_log_signoff: false,
  payroll_signoff: false,
  required_job_fields: [],
  require_company_on_sites: false,
  leads_pipeline: false,
  jobs_from_connected_system: false,
  capital_planning_enabled: false,
  customer_portal_enabled: false,
  online_payments_connected: false,
  stripe_account: null,
  remit_to: null,
  photo_limit: null,
  photo_default_visibility: 'external',
  photo_include_in_report_default: true,
  takeoff_credits: 0,
  landscape_edition: false,
  profit_floor_margin: null,
  estimate_markup_method: 'markup',
  estimate_markup_rate: 0.3,
  estimate_contingency_rate: null,
  estimate_tax_rate: null,
  estimate_minimum_charge: null,
  haul_drive_hr: 0.5,
  haul_load_unload_hr: 0.5,
  haul_truck_capacity_tons: 16,
  plant_address: null,
  speed_to_lead_minutes: 30,
  property_types: ['Residential', 'Commercial', 'HOA', 'Industrial', 'Municipal', 'Church', 'School', 'Other'],
  lead_routing: { round_robin_user_ids: null, territory_rules: [], service_rules: [] },
  proposal_acceptance_stage: null,
  logo_file_id: null,
  week_start: 'monday',
  premium_imagery_enabled: false,
};

export interface Division {
  key: string;
  name: string;
}

export function settingsOf(firm: Pick<Firm, 'settings'>): Settings {
  return { ...DEFAULT_SETTINGS, ...(JSON.parse(firm.settings) as Partial<Settings>) };
}

export function jobTypesOf(firm: Pick<Firm, 'job_types'>): string[] {
  return JSON.parse(firm.job_types) as string[];
}

export function divisionsOf(firm: Pick<Firm, 'divisions'>): Division[] {
  return JSON.parse(firm.divisions) as Division[];
}

export const DEFAULT_JOB_TYPES = [
  'Asphalt Paving',
  'Sealcoating',
  'Crack Filling',
  'Line Striping',
  'Patching',
  'Concrete',
  'Landscaping',
  'Snow Removal',
];

/** Every new workspace starts with the built-in pipeline stages. */
export const BUILT_IN_STAGES = [
  { key: 'lead', label: 'Lead', type: 'open', completed: false },
  { key: 'active', label: 'Active', type: 'open', completed: false },
  { key: 'won', label: 'Won', type: 'won', completed: false },
  { key: 'lost', label: 'Lost', type: 'lost', completed: false },
] as const;
