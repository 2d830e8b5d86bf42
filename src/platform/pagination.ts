// limit/offset paging and the `updated_after` rule shared by list endpoints (document 1, 6 and 9).
import { badRequest } from './errors.ts';
import { parseTimestamp } from './time.ts';

export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: { limit?: number; offset?: number }): Page {
  return { limit: query.limit ?? 50, offset: query.offset ?? 0 };
}

export function listEnvelope<T>(data: T[], total: number, page: Page) {
  return { data, pagination: { total, limit: page.limit, offset: page.offset } };
}

/** Parses `updated_after` into the stored timestamp form, or answers the documented 400. */
export function parseUpdatedAfter(value: string | undefined): string | undefined {
  return parseAfter(value, 'updated_after');
}

/** Parses `updated_after` or `created_after` (files) into the stored form, or answers its 400. */
export function parseAfter(value: string | undefined, param: 'updated_after' | 'created_after'): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseTimestamp(value);
  if (parsed === null) {
    throw badRequest(`${param} must be an ISO 8601 timestamp`, {
      code: param === 'updated_after' ? 'invalid_updated_after' : 'invalid_request',
      field: param,
    });
  }
  return parsed;
}
