// The condition area's table (034_condition_ratings): the ratings made, kept for usage and for a
// site's ratings history.
import type { Generated } from 'kysely';

export interface ConditionRatingTable {
  id: Generated<number>;
  firm_id: number;
  request_id: string;
  rating_type: 'paser' | 'pci';
  location_id: number | null;
  user_id: number | null;
  api_key_id: number | null;
  score: number;
  label: string;
  source: 'standard' | 'premium' | 'upload' | 'url';
  /** JSON: the rating result as answered, without image.jpeg_base64. */
  result: string;
  rated_at: string;
}

export interface ConditionTables {
  condition_ratings: ConditionRatingTable;
}
