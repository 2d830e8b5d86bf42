// The one set of record fixtures the tests share: writes through the API that must succeed and
// hand back the record, and a few rows only the database can make (areas not built yet).
import { expect } from 'vitest';
import { insertContact, type Client, type TestApp, type Workspace } from './harness.ts';

/** A workspace or one of its clients. */
type Caller = Client | { api: Client };
const clientOf = (caller: Caller): Client => ('api' in caller ? caller.api : caller);

/** Awaits a call, expects one of `status` and returns the body. */
export async function ok<T = any>(p: Promise<{ status: number; body: T }>, status = [200, 201]): Promise<T> {
  const res = await p;
  expect(status, JSON.stringify(res.body)).toContain(res.status);
  return res.body;
}

/** POSTs `body` to `path`, expects 201 and returns `data`. */
export async function created(caller: Caller, path: string, body: Record<string, unknown>) {
  const res = await clientOf(caller).post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

/** A new job (201); a random name unless the body names it. */
export async function job(caller: Caller, body: Record<string, unknown> = {}) {
  return created(caller, '/v1/jobs', { name: `Job ${Math.random().toString(36).slice(2, 10)}`, ...body }) as Promise<
    { id: number; name: string; assigned_to_user_id: number } & Record<string, any>
  >;
}

/** A new customer (201), "Acme Paving" unless named. */
export async function account(caller: Caller, name = 'Acme Paving', body: Record<string, unknown> = {}) {
  return created(caller, '/v1/client-accounts', { name, ...body }) as Promise<
    { id: number; name: string } & Record<string, any>
  >;
}

/** A new site (201). */
export async function site(caller: Caller, body: Record<string, unknown>) {
  return created(caller, '/v1/locations', body);
}

/** A new contact through the API (201). */
export const contactVia = (caller: Caller, body: Record<string, unknown>) => created(caller, '/v1/contacts', body);

/** A contact row inserted directly (for tests of other records that only need one to exist). */
export function contact(t: TestApp, w: Workspace, name = 'Pat Jones', clientAccountId: number | null = null) {
  return insertContact(t.database, w.firmId, { name, client_account_id: clientAccountId });
}

export async function logOf(w: { api: Workspace['api'] }, jobId: number) {
  const res = await w.api.get(`/v1/jobs/${jobId}/activity?limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as {
    id: number;
    kind: string;
    summary: string;
    data: Record<string, any>;
    user: { id: number; name: string } | null;
    created_at: string;
  }[];
}

export const Z_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
