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
  created_at: string;
  updated_at: string;
}

export interface LandscapeHistoryTable {
  id: Generated<number>;
  firm_id: number;
  takeoff_id: number;
  rev: number;
  change: 'add' | 'update' | 'delete' | 'detect' | 'undo';
  run_id: number | null;
  user_id: number | null;
  /** JSON [item] as answered before the change. */
  replaced: string;
  /** JSON [item id]. */
  added: string;
  created_at: string;
}

export interface LandscapeRunTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  takeoff_id: number | null;
  kind: 'detect';
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
}
