// Reads a request body the way PocketBase 0.22's c.Bind fills a form struct (tools/rest/
// multi_binder.go, then echo's form binder), so every endpoint takes JSON, url-encoded and
// multipart alike. A form body becomes the object JSON would have given: the JSON objects in its
// `@jsonPayload` values first (merged in order; one that does not decode is ignored, as 0.22
// does), then each plain value whose name matches a field of the form (exactly, else in any
// case), typed as echo types it: `int` via ParseInt ("" is 0), `bool` via ParseBool ("" is
// false; "1", "t", "TRUE"… are true), `strings` takes every repeated value, and a field of any
// other type (an object, a list of objects) cannot take text at all. Values of fields the form
// does not have are ignored. A body that cannot be read, or text that cannot be typed, fails the
// request with the endpoint's "load" message and empty data.
import type { FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../core/errors';
import { jsonTooDeep } from '../core/json-depth';
import { isObject } from '../../src/lib/json';
import { FormBody, UnreadableBody } from './request-body';

type FieldKind = 'string' | 'int' | 'bool' | 'strings' | 'json';
export type FormSpec = Readonly<Record<string, FieldKind>>;

type Typed<K extends FieldKind> = K extends 'string' ? string : K extends 'int' ? number : K extends 'bool' ? boolean : K extends 'strings' ? string[] : unknown;
type Bound<S extends FormSpec> = { -readonly [K in keyof S]?: Typed<S[K]> };

const JSON_PAYLOAD = '@jsonPayload';
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
/** strconv.ParseBool's spellings (a Map: no inherited keys). */
const BOOLS = new Map(Object.entries({ '1': true, t: true, T: true, TRUE: true, true: true, True: true, '0': false, f: false, F: false, FALSE: false, false: false, False: false }));

/**
 * The body as the endpoint's JSON would be (undefined when there is none). `loadMessage` is the
 * endpoint's 0.22 message for an unreadable body (undefined: the generic 400 message).
 */
export function readBody(req: FastifyRequest, spec: FormSpec, loadMessage?: string): unknown {
  const body = req.body;
  if (body instanceof UnreadableBody) throw badRequest(loadMessage, {}, body.reason);
  if (body instanceof FormBody) return bindFormValues(body, spec, (detail) => badRequest(loadMessage, {}, detail));
  return body;
}

/** The form's fields, typed; unknown keys are ignored and null leaves a field unset. */
export function bindForm<S extends FormSpec>(req: FastifyRequest, spec: S, loadMessage: string): Bound<S> {
  const body = readBody(req, spec, loadMessage) ?? {};
  if (!isObject(body)) throw badRequest(loadMessage, {}, 'the body is not an object');
  const out: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(spec)) {
    const value = Object.hasOwn(body, key) ? body[key] : undefined;
    if (value === undefined || value === null) continue;
    if (!fitsKind(value, kind)) throw badRequest(loadMessage, {}, `invalid type for "${key}"`);
    out[key] = value;
  }
  return out as Bound<S>;
}

function bindFormValues(form: FormBody, spec: FormSpec, fail: (detail: string) => ApiError): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const raw of form.values.get(JSON_PAYLOAD) ?? []) {
    // too deep to answer with safely: unreadable rather than ignored (as records do)
    if (jsonTooDeep(raw)) throw fail(`${JSON_PAYLOAD} nests too deep`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      continue;
    }
    if (isObject(parsed)) mergeJson(out, parsed);
  }
  for (const [name, kind] of Object.entries(spec)) {
    // Go's decoder skips a payload value of the wrong type and keeps the rest
    if (Object.hasOwn(out, name) && !fitsKind(out[name], kind)) delete out[name];
    const values = valuesFor(form, name);
    if (values) out[name] = typeText(values, kind, name, fail);
  }
  return out;
}

/** Objects merge key by key (Go decodes into the struct or map already there); others replace. */
function mergeJson(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const current = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isObject(value) && isObject(current)) mergeJson(current, value);
    // defined, not assigned: a "__proto__" key stays a plain key
    else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
}

function valuesFor(form: FormBody, name: string): readonly string[] | undefined {
  const exact = form.values.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const [key, values] of form.values) if (key.toLowerCase() === lower) return values;
  return undefined;
}

function typeText(values: readonly string[], kind: FieldKind, name: string, fail: (detail: string) => ApiError): unknown {
  const text = values[0];
  switch (kind) {
    case 'string':
      return text;
    case 'strings':
      return [...values];
    case 'int': {
      const digits = text === '' ? '0' : text;
      if (!/^[+-]?\d+$/.test(digits) || BigInt(digits) < INT64.min || BigInt(digits) > INT64.max) {
        throw fail(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
      }
      return Number(digits);
    }
    case 'bool': {
      const value = text === '' ? false : BOOLS.get(text);
      if (value === undefined) throw fail(`strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
      return value;
    }
    case 'json':
      throw fail(`"${name}" takes JSON only (send it in ${JSON_PAYLOAD})`);
  }
}

function fitsKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'json':
      return true;
  }
}
