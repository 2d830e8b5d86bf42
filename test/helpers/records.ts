// The one set of record fixtures the tests share: writes through the API that must succeed and
// hand back the record, and a few rows only the database can make (areas not built yet).
import { expect } from 'vitest';
import type { BodyOf, ResponseOf } from './api-types.ts';
import { insertContact, type Client, type Reply, type TestApp, type Workspace } from './harness.ts';

/** A workspace or one of its clients. */
type Caller = Client | { api: Client };
const clientOf = (caller: Caller): Client => ('api' in caller ? caller.api : caller);

/** Awaits a call, expects one of `status` and returns the body (the call's success shape). */
export async function ok<S>(p: Promise<Reply<S>>, status?: number[]): Promise<S>;
/** Awaits a reply of another helper (an upload), expects one of `status` and returns its body. */
export async function ok<T>(p: Promise<{ status: number; body: T }>, status?: number[]): Promise<T>;
export async function ok(p: Promise<{ status: number; body: unknown }>, status = [200, 201]) {
  const res = await p;
  expect(status, JSON.stringify(res.body)).toContain(res.status);
  return res.body;
}

/** POSTs `body` to `path`, expects 201 and returns `data`. */
export async function created<P extends string>(
  caller: Caller,
  path: P,
  body: BodyOf<P, 'post'>,
): Promise<DataOf<ResponseOf<P, 'post'>>> {
  const res = await clientOf(caller).post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { data: DataOf<ResponseOf<P, 'post'>> }).data;
}

/** The `data` of a success body. */
type DataOf<S> = S extends { data: infer D } ? D : any;

type NewJob = BodyOf<'/v1/jobs', 'post'>;

/** A new job (201); a random name unless the body names it. */
export async function job(caller: Caller, body: Partial<NewJob> = {}) {
  return created(caller, '/v1/jobs', { name: `Job ${Math.random().toString(36).slice(2, 10)}`, ...body });
}

/** A new customer (201), "Acme Paving" unless named. */
export async function account(
  caller: Caller,
  name = 'Acme Paving',
  body: Partial<BodyOf<'/v1/client-accounts', 'post'>> = {},
) {
  return created(caller, '/v1/client-accounts', { name, ...body });
}

/** A new site (201). */
export async function site(caller: Caller, body: BodyOf<'/v1/locations', 'post'>) {
  return created(caller, '/v1/locations', body);
}

/** A new contact through the API (201). */
export const contactVia = (caller: Caller, body: BodyOf<'/v1/contacts', 'post'>) =>
  created(caller, '/v1/contacts', body);

/** A contact row inserted directly (for tests of other records that only need one to exist). */
export function contact(t: TestApp, w: Workspace, name = 'Pat Jones', clientAccountId: number | null = null) {
  return insertContact(t.database, w.firmId, { name, client_account_id: clientAccountId });
}

export async function logOf(w: { api: Workspace['api'] }, jobId: number) {
  const res = await w.api.get(`/v1/jobs/${jobId}/activity?limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export const Z_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
