// The field-capture area: photo tags (008), assessment services (009), site assessments and pins (010), photos (011),
// pin photos (012), files and the Company Library (013), photo share links (015), assessment report and
// capital plan links (016).
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

export interface AssessmentServiceTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  name_key: string;
  /** The trade it belongs to (the API's `group`). */
  service_group: string;
  color: string;
  measurement_type: 'none' | 'count' | 'sqft' | 'dimensions' | 'volume' | 'lf';
  /** The catalog service that prices its pins; null when none does (or it was deleted). */
  catalog_service_id: number | null;
  /** Order in the list (the starter set's order). */
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SiteAssessmentTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  /** The job's site when the assessment was started (or null). */
  location_id: number | null;
  scope: 'job' | 'location';
  title: string;
  notes: string | null;
  status: 'open' | 'completed';
  created_by_user_id: number | null;
  completed_at: string | null;
  completed_by_user_id: number | null;
  /** JSON of the last completion's handoff snapshot (site-assessments/handoff.ts); null before one. */
  handoff: string | null;
  /** The assessment this one is a duplicate of. */
  duplicated_from_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface AssessmentPinTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  /** Null for a loose pin: it joins the job's next open assessment. */
  assessment_id: number | null;
  /** The n of its label: per assessment (or the job's loose pins) and service (assessment-pins/label.ts). */
  number: number;
  name: string | null;
  latitude: number;
  longitude: number;
  service_type_id: number | null;
  tag_id: number | null;
  /** An id of the fixed defect list (assessment-pins/defect-types.ts). */
  defect_type_id: number | null;
  severity: 'low' | 'medium' | 'high';
  size: 'small' | 'medium' | 'large';
  notes: string | null;
  visibility: 'internal' | 'external';
  keep_for_proposal: number;
  measurement_type: 'none' | 'count' | 'sqft' | 'dimensions' | 'volume' | 'lf';
  measurement_value: number | null;
  measurement_unit: 'EA' | 'SF' | 'LF' | 'CY' | null;
  /** JSON object: what the client sent as measurement_data, with the dimensions. */
  measurement_data: string;
  length_ft: number | null;
  width_ft: number | null;
  depth_in: number | null;
  ai_severity: string | null;
  ai_rationale: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface PhotoTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  /** The object shown as `url`: the upload itself, or its upright copy when EXIF said to rotate. */
  storage_key: string;
  /** The 400 px JPEG; null for a video or an image the image library cannot decode (HEIC here). */
  thumbnail_key: string | null;
  content_type: string;
  bytes: number;
  is_video: number;
  width: number | null;
  height: number | null;
  filename: string | null;
  caption: string | null;
  title: string | null;
  stage: 'before' | 'during' | 'after' | 'general';
  visibility: 'external' | 'internal';
  include_in_report: number;
  taken_at: string;
  taken_by_user_id: number | null;
  latitude: number | null;
  longitude: number | null;
  /** Degrees clockwise from north, 0 to 359. */
  compass_heading: number | null;
  /** Gallery position (0 unless set); ties go by taken_at. */
  sort_order: number;
  /** The uploader's idempotency key, unique per workspace. */
  client_uid: string | null;
  /** The crew's daily report the photo was taken for (030). */
  daily_report_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface PhotoTagLinkTable {
  photo_id: number;
  tag_id: number;
}

/** A photo shown on a pin (a duplicate's pins share the source's photos). */
export interface AssessmentPinPhotoTable {
  pin_id: number;
  photo_id: number;
  /** Order on the pin: the order the photos were added. */
  position: number;
  created_at: string;
}

export type FileSource = 'job' | 'customer' | 'contact' | 'library' | 'proposal' | 'work_order';
export type FileAudience = 'office' | 'field';

/** A stored file (document 3, File): owned by a job, a customer, a contact or the Company Library. */
export interface FileTable {
  id: Generated<number>;
  firm_id: number;
  storage_key: string;
  /** The name it was uploaded as (no path), at most 255 characters. */
  filename: string;
  /** Told from the file's first bytes and its name's extension (files/kinds.ts). */
  content_type: string;
  size_bytes: number;
  description: string | null;
  /** Set for files the service made (executed_proposal, executed_agreement); null for uploads. */
  document_type: string | null;
  source: FileSource;
  audience: FileAudience;
  customer_visible: number;
  job_id: number | null;
  client_account_id: number | null;
  contact_id: number | null;
  /** Work orders are not built yet: always null so far. */
  work_order_id: number | null;
  /** Library files only: the folder, or null for the library's top level. */
  folder_id: number | null;
  uploaded_by_user_id: number | null;
  created_at: string;
}

/** A Company Library folder: names unique per workspace in any case. */
export interface LibraryFolderTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  name_key: string;
  created_at: string;
  updated_at: string;
}

/** A library file shown in a job's file list (the file's `attachment`). */
export interface LibraryFileJobTable {
  id: Generated<number>;
  firm_id: number;
  file_id: number;
  job_id: number;
  /** The rule that attached it; null for an attachment made by hand (no rules are built yet). */
  attached_by_rule: string | null;
  attached_by_user_id: number | null;
  created_at: string;
}

/**
 * A job's photo report link (at most one per job). The token is derived from `token_salt` and found
 * by `token_hash` (platform/link-tokens.ts); turning the link off retires that hash and turning it
 * on again issues a new salt.
 */
export interface PhotoShareLinkTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  token_salt: string;
  token_hash: string;
  enabled: number;
  /** `scrypt$N$r$p$<salt hex>$<hash hex>` of the access code; null for a public link. */
  access_code_hash: string | null;
  /** Null: never expires. */
  expires_at: string | null;
  /** Wrong access codes since `failed_window_start` (photo-share-links/access.ts). */
  failed_attempts: Generated<number>;
  failed_window_start: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A link to chosen photos of a job: expires, and can be revoked for good. */
export interface PhotoSelectionShareTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  title: string | null;
  token_salt: string;
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
}

/** A photo a selection shows, at its position (from 1, the order photo_ids gave). */
export interface PhotoSelectionSharePhotoTable {
  share_id: number;
  photo_id: number;
  position: number;
}
/** An assessment report link (016): scoped to some services or showing them all; revocable for good. */
export interface AssessmentShareLinkTable {
  id: Generated<number>;
  firm_id: number;
  assessment_id: number;
  /** The token is HMAC(server secret, kind + salt): made again from this to show the link. */
  token_salt: string;
  /** SHA-256 of the token: how the page finds the link. */
  token_hash: string;
  /** JSON array of assessment service ids (ascending); null shows every service. */
  service_type_ids: string | null;
  label: string | null;
  revoked_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
}

/** A site's capital plan link (016): at most one per site; a new token each time it is turned on or rotated. */
export interface PlanShareLinkTable {
  id: Generated<number>;
  firm_id: number;
  location_id: number;
  token_salt: string;
  token_hash: string;
  enabled: number;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A workspace's number of photos, kept by triggers on photos (migration 018). */
export interface PhotoCountTable {
  firm_id: number;
  count: number;
}

export interface FieldTables {
  photo_tags: PhotoTagTable;
  assessment_services: AssessmentServiceTable;
  site_assessments: SiteAssessmentTable;
  assessment_pins: AssessmentPinTable;
  photos: PhotoTable;
  photo_tag_links: PhotoTagLinkTable;
  assessment_pin_photos: AssessmentPinPhotoTable;
  files: FileTable;
  library_folders: LibraryFolderTable;
  library_file_jobs: LibraryFileJobTable;
  photo_share_links: PhotoShareLinkTable;
  photo_selection_shares: PhotoSelectionShareTable;
  photo_selection_share_photos: PhotoSelectionSharePhotoTable;
  assessment_share_links: AssessmentShareLinkTable;
  plan_share_links: PlanShareLinkTable;
  photo_counts: PhotoCountTable;
}
