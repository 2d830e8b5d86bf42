// PLACEHOLDER while issue 4 is built: replaced by the area's routes.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';

export function contactRoutes(_app: FastifyInstance, _database: Database): void {}
