// One error type for every documented failure; the handler in platform/error-handler.ts renders it.
//
// `code` is closed: every machine-readable code the API answers is listed in ERROR_CODES, so a
// client (and the OpenAPI document) can rely on the set, and a typo is a compile error.
export const ERROR_CODES = [
  'address_not_found',
  'already_archived',
  'already_clocked_out',
  'already_merged',
  'approval_not_pending',
  'approval_required',
  'approved_priced_change_order',
  'archived',
  'area_inactive',
  'assessment_completed',
  'capital_planning_disabled',
  'change_order_decided',
  'change_order_estimate',
  'change_order_void',
  'company_required',
  'concurrent_change',
  'contact_empty',
  'contact_other_customer',
  'crew_day_locked',
  'crew_not_active',
  'crew_scheduling_disabled',
  'customer_portal_disabled',
  'customer_skips_follow_ups',
  'day_payroll_approved',
  'deletion_locked',
  'detection_failed',
  'discount_exceeds_subtotal',
  'drive_time_unavailable',
  'duplicate_channel',
  'duplicate_invoice',
  'duplicate_name',
  'edit_in_takeoff_editor',
  'estimate_archived',
  'estimate_has_no_job',
  'estimate_has_no_lines',
  'estimate_lost',
  'estimate_not_priced',
  'estimate_other_job',
  'estimate_won',
  'estimating_admin_required',
  'estimating_role_required',
  'exports_in_progress',
  'folder_not_empty',
  'forbidden',
  'geocode_failed',
  'hold_only_through_holds',
  'image_rejected',
  'image_too_large',
  'imagery_unavailable',
  'invalid_catalog',
  'invalid_choice',
  'invalid_custom_field',
  'invalid_email',
  'invalid_export_path',
  'invalid_formula',
  'invalid_html',
  'invalid_image',
  'invalid_line_items',
  'invalid_operation',
  'invalid_phone',
  'invalid_query',
  'invalid_request',
  'invalid_status',
  'invalid_text',
  'invalid_transition',
  'invalid_types',
  'invalid_updated_after',
  'invoice_closed',
  'invoiced_jobs',
  'issue_blocked',
  'item_type_required',
  'job_address_missing',
  'job_costs_hidden',
  'job_has_no_estimate',
  'job_number_taken',
  'jobs_from_connected_system',
  'lead_closed',
  'lead_dismissed',
  'line_scheduled',
  'link_expired',
  'link_invalid',
  'mail_not_delivered',
  'measurement_not_found',
  'merge_into_self',
  'missing_image',
  'missing_parameter',
  'missing_permission',
  'missing_required_fields',
  'name_taken',
  'no_customer_email',
  'no_deposit',
  'no_imagery_coverage',
  'no_job',
  'no_pavement_visible',
  'no_proposal',
  'no_subscription',
  'not_a_rebid',
  'not_awarded',
  'not_deliverable',
  'not_issued',
  'not_on_crew',
  'not_owner',
  'not_subscribed',
  'nothing_to_bill',
  'office_user_required',
  'online_invoice',
  'online_payments_not_set_up',
  'open_assessment_exists',
  'operations_disabled',
  'out_for_signature',
  'over_contract',
  'payroll_approver_required',
  'photo_limit_reached',
  'plan_upgrade_required',
  'portal_not_ready',
  'pricing_access_required',
  'pricing_error',
  'private_target',
  'proposal_decided',
  'proposal_void',
  'rate_limited',
  'rating_failed',
  'read_only_session',
  'remit_to_required',
  'request_decided',
  'request_key_reused',
  'request_pending',
  'request_timeout',
  'route_address_missing',
  'sequence_not_enabled',
  'shape_far_from_takeoff',
  'shape_not_found',
  'signed_change_order',
  'signoff_not_used',
  'stale_measurement',
  'status_locked',
  'storage_unavailable',
  'subscription_inactive',
  'takeoff_changed',
  'takeoff_locked',
  'takeoff_would_be_empty',
  'time_entry_overlap',
  'time_entry_void',
  'unique_violation',
  'unknown_category',
  'unknown_choice_fields',
  'unknown_custom_fields',
  'unknown_dataset',
  'unknown_fields',
  'unknown_item',
  'unknown_job_type',
  'unknown_operation',
  'unknown_roles',
  'unknown_section',
  'unknown_service',
  'unknown_stage',
  'unknown_status',
  'unknown_template',
  'unknown_type',
  'upgrade_required',
  'uri_too_long',
  'url_fetch_failed',
  'url_not_image',
  'view_only',
  'viewer_read_only',
  'work_from_job',
  'work_order_closed',
  'would_remove_all_areas',
  'wrong_shape_for_item',
  'zero_total',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Fields beside `error`: a `code` from the catalogue, a `message`, and whatever the case needs. */
export type ErrorExtra = { code?: ErrorCode; message?: string } & Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;
  readonly body: { error: string; message?: string; code?: ErrorCode } & Record<string, unknown>;

  constructor(status: number, error: string, extra: ErrorExtra = {}) {
    super(extra.message ?? error);
    this.status = status;
    this.body = { error, ...extra };
  }
}

export const badRequest = (error: string, extra?: ErrorExtra) => new ApiError(400, error, extra);
export const unauthorized = (error: string, extra?: ErrorExtra) => new ApiError(401, error, extra);
export const paymentRequired = (error: string, extra?: ErrorExtra) => new ApiError(402, error, extra);
export const forbidden = (error: string, extra?: ErrorExtra) => new ApiError(403, error, extra);
export const notFound = (error: string, extra?: ErrorExtra) => new ApiError(404, error, extra);
export const conflict = (error: string, extra?: ErrorExtra) => new ApiError(409, error, extra);
export const unprocessable = (error: string, extra?: ErrorExtra) => new ApiError(422, error, extra);

/** The common 400: one field is wrong (`invalid_request`, naming the field). */
export const invalidField = (field: string, error: string, extra?: Omit<ErrorExtra, 'code' | 'field'>) =>
  new ApiError(400, error, { code: 'invalid_request', field, ...extra });

/**
 * Body fields the endpoint does not take, named together (document 1, Conventions 7). The text is
 * the spec's "Unknown fields" whatever their number (document 3, Errors).
 */
export const unknownFieldsText = (fields: readonly string[]) => `Unknown fields: ${fields.join(', ')}`;
export const unknownFields = (fields: readonly string[], extra?: Omit<ErrorExtra, 'code' | 'fields'>) =>
  new ApiError(400, unknownFieldsText(fields), { code: 'unknown_fields', fields: [...fields], ...extra });
