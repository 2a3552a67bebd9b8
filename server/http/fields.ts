// `?fields=` on every 2xx JSON response (the picking itself: server/core/pick-fields.ts).
import type { FastifyInstance } from 'fastify';
import { pickFields } from '../core/pick-fields';

export function registerFieldsFilter(app: FastifyInstance): void {
  app.addHook('preSerialization', async (req, reply, payload) => {
    const raw = (req.query as Record<string, unknown> | undefined)?.fields;
    const fields = Array.isArray(raw) ? raw[0] : raw;
    if (typeof fields !== 'string' || fields === '' || reply.statusCode < 200 || reply.statusCode > 299) return payload;
    return pickFields(payload, fields);
  });
}

