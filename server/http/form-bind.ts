// Reads a form body into typed fields the way PocketBase's c.Bind does: unknown keys are
// ignored, null leaves a field unset, and a value of the wrong type (or a body that is not an
// object) fails the whole request with the endpoint's "load" message and empty data.
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../core/errors';

export type FieldKind = 'string' | 'int' | 'bool';
type Bound<S extends Record<string, FieldKind>> = {
  -readonly [K in keyof S]?: S[K] extends 'string' ? string : S[K] extends 'int' ? number : boolean;
};

export function bindForm<S extends Record<string, FieldKind>>(req: FastifyRequest, spec: S, loadMessage: string): Bound<S> {
  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(loadMessage);
  // Form posts carry every value as text; JSON must already have the right type.
  const fromForm = String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
  const out: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(spec)) {
    const value = (body as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    const converted = convert(value, kind, fromForm);
    if (converted === undefined) throw badRequest(loadMessage, {}, `invalid type for "${key}"`);
    out[key] = converted;
  }
  return out as Bound<S>;
}

function convert(value: unknown, kind: FieldKind, fromForm: boolean): unknown {
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'int':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
      if (fromForm && typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
      return undefined;
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (fromForm && (value === 'true' || value === 'false')) return value === 'true';
      return undefined;
  }
}
