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

/**
 * This server's origin as the caller reached it (`https://host`): the base of the absolute, keyless
 * links an answer carries (stored files, export downloads).
 */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * The key permissions most calls need (document 1, Permissions), as a route's `config`: reads need
 * Read jobs, writes Write jobs, and every DELETE (archives included) also Delete records.
 */
export const READ: { permissions: Permission[] } = { permissions: ['read_jobs'] };
export const WRITE: { permissions: Permission[] } = { permissions: ['write_jobs'] };
export const DELETE: { permissions: Permission[] } = { permissions: ['write_jobs', 'delete_records'] };
