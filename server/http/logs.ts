// STUB (to be replaced).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
export function registerLogs(_app: FastifyInstance, _ctx: AppContext): void {}
