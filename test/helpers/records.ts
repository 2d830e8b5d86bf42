// Shared setup for the notes, activities, follow-ups and job activity log tests.
import { expect } from 'vitest';
import { insertContact, type TestApp, type Workspace } from './harness.ts';

export async function job(w: { api: Workspace['api'] }, body: Record<string, unknown> = {}) {
  const res = await w.api.post('/v1/jobs', { name: `Job ${Math.random().toString(36).slice(2, 10)}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; name: string; assigned_to_user_id: number } & Record<string, any>;
}

export async function account(w: Workspace, name = 'Acme Paving', body: Record<string, unknown> = {}) {
  const res = await w.api.post('/v1/client-accounts', { name, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; name: string };
}

export function contact(t: TestApp, w: Workspace, name = 'Pat Jones', clientAccountId: number | null = null) {
  return insertContact(t.database, w.firmId, { name, client_account_id: clientAccountId });
}

export async function logOf(w: { api: Workspace['api'] }, jobId: number) {
  const res = await w.api.get(`/v1/jobs/${jobId}/activity?limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; kind: string; summary: string; data: Record<string, any>; user: { id: number; name: string } | null; created_at: string }[];
}

export const Z_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
