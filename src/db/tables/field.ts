// The field-capture area: photo tags (008).
import type { Generated } from 'kysely';

export interface PhotoTagTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  /** The name lowercased with spaces folded: unique per workspace. */
  name_key: string;
  /** #rrggbb, lowercase. */
  color: string;
  /** What the tag means, for people and for photo analysis. */
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface FieldTables {
  photo_tags: PhotoTagTable;
}
