// Shared steps of the contacts tests: writes that must succeed (201) and hand back the record.
import { expect } from 'vitest';
import type { Workspace } from '#test/helpers/harness.ts';

/** POSTs `body` to `path`, expects 201 and returns `data`. */
export async function created(w: Workspace, path: string, body: Record<string, unknown>) {
  const res = await w.api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

export const contact = (w: Workspace, body: Record<string, unknown>) => created(w, '/v1/contacts', body);
export const job = (w: Workspace, body: Record<string, unknown>) => created(w, '/v1/jobs', body);
