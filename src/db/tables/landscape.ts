// The landscape takeoffs' tables (036_landscape): takeoffs, their items, the history of saved
// changes and the runs the worker does.
import type { Generated } from 'kysely';
import type { Flag } from './shared.ts';

export interface LandscapeTakeoffTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  name: string;
  type: 'aerial' | 'blueprint';
  mode: 'auto' | 'manual' | null;
  editor: 'plan' | 'standalone' | null;
  rev: number;
  /** JSON quantities in square feet (measurement/landscape/quantities.ts). */
  quantities: string;
  item_count: number;
  credit_used: Generated<Flag>;
  cleanup: 'sent' | null;
  /** Plan takeoffs (037): pages in the PDF, the stored PDF, where it came from (JSON). */
  page_count: number | null;
  plan_key: string | null;
  plan_source: string | null;
  /** JSON PlantSchedule as read or placed (plans). */
  schedule: string | null;
  /** JSON irrigation an irrigation run applied (plans). */
  irrigation: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface LandscapeItemTable {
  id: Generated<number>;
  firm_id: number;
  takeoff_id: number;
  kind: 'area' | 'object' | 'dot';
  class: string;
  phase: string | null;
  /** JSON [[lat, lng], …] rings, outline first. */
  rings: string | null;
  lat: number | null;
  lng: number | null;
  area_sqft: number | null;
  source: 'manual' | 'detected';
  run_id: number | null;
  /** Plan dots (037): the plant, the page, sheet pixels at 144 dpi, a typed quantity, a callout's count. */
  plant_id: number | null;
  page: number | null;
  x: number | null;
  y: number | null;
  quantity: number | null;
  callout_quantity: number | null;
  created_at: string;
  updated_at: string;
}

/** A sheet of a plan takeoff (037): its image and its text layer. */
export interface LandscapeSheetTable {
  id: Generated<number>;
  firm_id: number;
  takeoff_id: number;
  page: number;
  width: number;
  height: number;
  image_key: string;
  image_bytes: number;
  /** JSON SheetText (engines/plans). */
  text: string;
  created_at: string;
}

/** A plant of a plan takeoff (037): a row of its schedule. */
export interface LandscapePlantTable {
  id: Generated<number>;
  firm_id: number;
  takeoff_id: number;
  code: string;
  name: string | null;
  common_name: string | null;
  size: string | null;
  kind: 'plant' | 'callout' | 'callout_tag' | 'other';
  unit: string;
  typed_quantity: number | null;
  /** JSON SheetBox on the schedule's page, or null. */
  symbol_box: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

/** What saved a change: the API's item calls, a run (detect or a plan run), an undo, a schedule placed. */
export type LandscapeChange = 'add' | 'update' | 'delete' | 'detect' | 'undo' | 'plan_run' | 'schedule';

export interface LandscapeHistoryTable {
  id: Generated<number>;
  firm_id: number;
  takeoff_id: number;
  rev: number;
  change: LandscapeChange;
  run_id: number | null;
  user_id: number | null;
  /** JSON [item] as answered before the change. */
  replaced: string;
  /** JSON [item id]. */
  added: string;
  created_at: string;
}

/** What a run does: detect (aerial), plan (store and read a plan PDF), and the plan runs. */
export type LandscapeRunKind =
  | 'detect'
  | 'plan'
  | 'find_plants'
  | 'group_plants'
  | 'read_callouts'
  | 'advanced_run'
  | 'irrigation';

export interface LandscapeRunTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  takeoff_id: number | null;
  kind: LandscapeRunKind;
  status: 'pending' | 'completed' | 'failed' | 'undone';
  /** JSON: the normalised request. */
  request: string;
  /** JSON: what the run did. */
  result: string | null;
  failure_code: string | null;
  failure_message: string | null;
  charged: Generated<Flag>;
  attempts: Generated<number>;
  locked_until: string | null;
  lease_token: string | null;
  created_by_user_id: number | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  undone_at: string | null;
}

export interface LandscapeTables {
  landscape_takeoffs: LandscapeTakeoffTable;
  landscape_items: LandscapeItemTable;
  landscape_history: LandscapeHistoryTable;
  landscape_runs: LandscapeRunTable;
  landscape_sheets: LandscapeSheetTable;
  landscape_plants: LandscapePlantTable;
}
