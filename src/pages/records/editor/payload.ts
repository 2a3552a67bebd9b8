// The request body of a record save: every field sent as its type converts it (undefined as
// null, dates as 19 characters, JSON parsed: an unparsable one is the field error invalid_json), passwords
// only when creating or changing them, and files as multipart: new files under the field name and
// deletions as '{field}.{filename}' empty entries. The other values travel in `@jsonPayload`.
import { fieldDefinition } from '../../../fields/registry';
import { RESERVED_FORM_NAMES } from '../../../lib/record-form';
import type { RecordCollectionLike } from '../../../lib/record-schema';
import { isUploadToken } from '../../../widgets/record/context';

type JsonFieldError = { code: 'invalid_json'; message: string };

const toList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);

export type BuiltPayload =
  | { ok: true; body: Record<string, unknown>; files: Array<[string, File]>; deletions: string[] }
  | { ok: false; errors: Record<string, JsonFieldError> };

export function buildRecordPayload(
  collection: RecordCollectionLike,
  data: Record<string, unknown>,
  opts: { isNew: boolean; original: Record<string, unknown> | null; uploads: Map<string, File> },
): BuiltPayload {
  const body: Record<string, unknown> = {};
  const files: Array<[string, File]> = [];
  const deletions: string[] = [];
  const errors: Record<string, JsonFieldError> = {};

  if (opts.isNew && typeof data.id === 'string' && data.id) body.id = data.id;
  if (collection.type === 'auth') {
    body.username = data.username ?? '';
    body.email = data.email ?? '';
    body.emailVisibility = !!data.emailVisibility;
    body.verified = !!data.verified;
    if (opts.isNew || data.changePassword) {
      body.password = data.password ?? '';
      body.passwordConfirm = data.passwordConfirm ?? '';
    }
  }
  for (const f of collection.schema) {
    if (f.toDelete || !f.name || RESERVED_FORM_NAMES.has(f.name)) continue;
    const v = data[f.name];
    const def = fieldDefinition(f.type);
    if (def.uploads) {
      const current = toList(v);
      for (const token of current.filter(isUploadToken)) {
        const file = opts.uploads.get(token);
        if (file) files.push([f.name, file]);
      }
      const before = opts.original ? toList(opts.original[f.name]) : [];
      for (const name of before) if (!current.includes(name)) deletions.push(`${f.name}.${name}`);
      continue;
    }
    const sent = def.record.toRequest ? def.record.toRequest(v, f) : { ok: true as const, value: v === undefined ? null : v };
    if (sent.ok) body[f.name] = sent.value;
    else errors[f.name] = { code: 'invalid_json', message: sent.message };
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, body, files, deletions };
}

/** The multipart body the SDK sends. */
export function toFormData(p: Extract<BuiltPayload, { ok: true }>): FormData {
  const fd = new FormData();
  fd.append('@jsonPayload', JSON.stringify(p.body));
  for (const [name, file] of p.files) fd.append(name, file);
  for (const key of p.deletions) fd.append(key, '');
  return fd;
}
