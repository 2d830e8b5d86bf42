// Runs the migrations in order; called on every start so a fresh machine needs no manual step.
import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DB } from './tables.ts';
import type { Database } from './database.ts';
import * as spine from '#db/migrations/001_spine.ts';
import * as eventsOut from '#db/migrations/002_events_out.ts';
import * as people from '#db/migrations/003_people.ts';
import * as search from '#db/migrations/004_search.ts';
import * as catalog from '#db/migrations/005_catalog.ts';
import * as estimates from '#db/migrations/006_estimates.ts';
import * as exportLinkReuse from '#db/migrations/007_export_link_reuse.ts';
import * as photoTags from '#db/migrations/008_photo_tags.ts';
import * as assessmentServices from '#db/migrations/009_assessment_services.ts';
import * as siteAssessments from '#db/migrations/010_site_assessments.ts';
import * as photos from '#db/migrations/011_photos.ts';
import * as pinPhotos from '#db/migrations/012_pin_photos.ts';
import * as files from '#db/migrations/013_files.ts';
import * as retiredLinks from '#db/migrations/014_retired_links.ts';
import * as photoShareLinks from '#db/migrations/015_photo_share_links.ts';
import * as assessmentShareLinks from '#db/migrations/016_assessment_share_links.ts';
import * as photoListIndex from '#db/migrations/017_photo_list_index.ts';
import * as photoCounts from '#db/migrations/018_photo_counts.ts';
import * as mail from '#db/migrations/019_mail.ts';
import * as leads from '#db/migrations/020_leads.ts';
import * as reminders from '#db/migrations/021_reminders.ts';
import * as portalSequences from '#db/migrations/022_portal_sequences.ts';
import * as proposals from '#db/migrations/023_proposals.ts';
import * as proposalSearch from '#db/migrations/024_proposal_search.ts';
import * as invoices from '#db/migrations/025_invoices.ts';
import * as onlinePayments from '#db/migrations/026_online_payments.ts';
import * as changeOrders from '#db/migrations/027_change_orders.ts';
import * as demoLinks from '#db/migrations/028_demo_links.ts';
import * as invoiceNumbers from '#db/migrations/029_invoice_numbers.ts';
import * as operations from '#db/migrations/030_operations.ts';
import * as rebidCycles from '#db/migrations/033_rebid_cycles.ts';
import * as conditionRatings from '#db/migrations/034_condition_ratings.ts';
import * as measurements from '#db/migrations/035_measurements.ts';
import * as landscape from '#db/migrations/036_landscape.ts';
import * as landscapePlans from '#db/migrations/037_landscape_plans.ts';
import * as editableAreas from '#db/migrations/038_measurement_editable_areas.ts';
import * as jobReportColumns from '#db/migrations/039_job_report_columns.ts';
import * as calculationLz4 from '#db/migrations/040_calculation_lz4.ts';
import * as estimatesNewest from '#db/migrations/041_estimates_newest.ts';
import * as deliveryLeaseRoom from '#db/migrations/042_delivery_lease_room.ts';
import * as deliveryPayloads from '#db/migrations/043_delivery_payloads.ts';

type Step = { up(db: Kysely<any>, d: Database['dialect']): Promise<void> };
const steps: Record<string, Step> = {
  '001_spine': spine,
  '002_events_out': eventsOut,
  '003_people': people,
  '004_search': search,
  '005_catalog': catalog,
  '006_estimates': estimates,
  '007_export_link_reuse': exportLinkReuse,
  '008_photo_tags': photoTags,
  '009_assessment_services': assessmentServices,
  '010_site_assessments': siteAssessments,
  '011_photos': photos,
  '012_pin_photos': pinPhotos,
  '013_files': files,
  '014_retired_links': retiredLinks,
  '015_photo_share_links': photoShareLinks,
  '016_assessment_share_links': assessmentShareLinks,
  '017_photo_list_index': photoListIndex,
  '018_photo_counts': photoCounts,
  '019_mail': mail,
  '020_leads': leads,
  '021_reminders': reminders,
  '022_portal_sequences': portalSequences,
  '023_proposals': proposals,
  '024_proposal_search': proposalSearch,
  '025_invoices': invoices,
  '026_online_payments': onlinePayments,
  '027_change_orders': changeOrders,
  '028_demo_links': demoLinks,
  '029_invoice_numbers': invoiceNumbers,
  '030_operations': operations,
  '033_rebid_cycles': rebidCycles,
  '034_condition_ratings': conditionRatings,
  '035_measurements': measurements,
  '036_landscape': landscape,
  '037_landscape_plans': landscapePlans,
  '038_measurement_editable_areas': editableAreas,
  '039_job_report_columns': jobReportColumns,
  '040_calculation_lz4': calculationLz4,
  '041_estimates_newest': estimatesNewest,
  '042_delivery_lease_room': deliveryLeaseRoom,
  '043_delivery_payloads': deliveryPayloads,
};

export async function migrateToLatest(database: Database): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, step] of Object.entries(steps)) {
        out[name] = { up: (db) => step.up(db, database.dialect) };
      }
      return out;
    },
  };
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours: on
  // PostgreSQL name it (the connection's current schema), or another schema's tables confuse it,
  // and let its introspection see only that schema (lookingOnlyAt).
  const schema =
    database.schema ?? (database.dialect.engine === 'postgres' ? await currentSchema(database) : undefined);
  const db = schema && database.dialect.engine === 'postgres' ? lookingOnlyAt(database.db, schema) : database.db;
  const { error, results } = await new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`${failed ? `migration ${failed}` : 'migrations'} failed: ${(error as Error).message ?? error}`, {
      cause: error,
    });
  }
}

/**
 * The database as the migrator sees it, but whose introspection looks only at our schema. Kysely
 * asks its introspector whether its bookkeeping tables exist, and PostgreSQL's reads every column
 * of every schema: slow beside many schemas, and failing with `schema "…" does not exist` when
 * another session drops one during the read (test databases side by side, tenants removed).
 */
function lookingOnlyAt(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection: DatabaseIntrospector = {
    async getSchemas() {
      const { rows } = await sql<{
        name: string;
      }>`select nspname as name from pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string; type: string }>`
        select table_name as name, table_type as type from information_schema.tables where table_schema = ${schema}`.execute(
        db,
      );
      // The migrator needs the names; columns are not read.
      return rows.map((r) => ({ name: r.name, schema, isView: r.type === 'VIEW', columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  // Kysely keeps its state in private fields, so every other member is the real instance's, bound to it.
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function currentSchema(database: Database): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return rows[0]!.schema;
}
