// The typed client's tests call a real listening server, the way an integrator's code would:
// the harness app on a loopback port, and a client of clients/typescript per key.
import type { AddressInfo } from 'node:net';
import { createGroundworkClient, type GroundworkClient } from '../../clients/typescript/src/index.ts';
import type { TestApp } from '#test/helpers/harness.ts';

/** Starts the harness app on a free loopback port (once per app) and returns its origin. */
export async function listening(t: TestApp): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** A typed client of the listening app, with `key` (and `firmId` for a partner key). */
export async function typedClient(t: TestApp, key: string, firmId?: number): Promise<GroundworkClient> {
  return createGroundworkClient({ baseUrl: await listening(t), apiKey: key, firmId });
}
