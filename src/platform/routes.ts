// The Fastify instance every area's routes are registered on. Its type provider types
// `request.body`, `query` and `params` from the TypeBox schemas that validate them, so a handler
// never casts request data, and checks each reply against the route's response schemas.
import type {
  FastifyBaseLogger,
  FastifyRequest,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Env } from './context.ts';
import type { Permission } from './permissions.ts';

export type ApiApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** One resource's routes: registered on the /v1 scope with the process's database and deps. */
export type RouteModule = (app: ApiApp, env: Env) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** GROUNDWORK_PUBLIC_URL (config.ts), decorated by buildApp; null when not set. */
    publicOrigin: string | null;
  }
}

/**
 * The origin links are made on (`https://host`): the base of the absolute, keyless links an
 * answer, an email or a page carries (customer pages, stored files, export downloads). The
 * configured public origin when there is one, so an integration calling an internal host name
 * never mails a customer a link they cannot open; otherwise this server as the caller reached it.
 */
export const originOf = (request: FastifyRequest) =>
  request.server.publicOrigin ?? `${request.protocol}://${request.host}`;

/**
 * The key permissions most calls need (document 1, Permissions), as a route's `config`: reads need
 * Read jobs, writes Write jobs, and every DELETE (archives included) also Delete records.
 */
export const READ: { permissions: Permission[] } = { permissions: ['read_jobs'] };
export const WRITE: { permissions: Permission[] } = { permissions: ['write_jobs'] };
export const DELETE: { permissions: Permission[] } = { permissions: ['write_jobs', 'delete_records'] };
/** A write a crew login may make too (platform/auth.ts): the crew app's interface, photo uploads, schedule requests. */
export const CREW_WRITE: { permissions: Permission[]; crewApp: true } = { permissions: ['write_jobs'], crewApp: true };
