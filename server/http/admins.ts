// STUB (to be replaced).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
export function registerAdmins(_app: FastifyInstance, _ctx: AppContext): void {}
