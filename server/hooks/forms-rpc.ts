// 0.22's forms (`new RecordUpsertForm($app, record)`, ...) as hook code uses them, run by the main
// thread with the API's own forms, schemas and services: what the executor's form collected (loadData,
// addFiles, removeFiles, its fields) is replayed on the server's form, validated as the API
// validates it and, on submit, saved as the API saves it. A failure is 0.22's: the form's errors
// (validation.Errors), whose message reads "field: message." and whose field errors an uncaught
// throw answers with (a 400 with the generic message: ./worker/namespaces/forms.ts).
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { saveCollection } from '../collections/service';
import { findCollection } from '../collections/store';
import { ApiError } from '../core/errors';
import { bodyErrors, fieldFailure } from '../core/body-validator';
import { toCollection, toRecord } from '../migrations/js-dao-shared';
import { authOptions, findAuthRowByEmail, findAuthRowByUsername } from '../records/auth-store';
import { sniffContentType } from '../records/files';
import { recordFromRow } from '../records/model';
import { submitRecordForm } from '../records/upsert';
import { LoadError, newRecordModel, RecordForm } from '../records/upsert-form';
import type { UploadedFile } from '../records/validate';
import { hashPassword, newTokenKey, verifyPassword } from '../services/passwords';
import type { AdminRow } from '../services/admins';
import { saveAdmin } from '../services/admin-writes';
import { mergePatch, SettingsPatchError } from '../services/settings-merge';
import { saveSettings } from '../services/settings-save';
import { validateSettings } from '../services/settings-validate';
import { adminEventWire, adminRowFromWire } from './admin-wire';
import { fieldDefinition } from '../../src/fields/registry';
import { isEmailAddress } from '../../src/lib/email-address';
import type { FileWire } from './hook-file';
import { toWire } from './models-wire';
import type { RecordWire } from './protocol';
import type { NamespaceEnv } from './namespaces-rpc';
import { recordModelOf } from './record-wire';

type Data = Record<string, unknown>;

/** What the executor's RecordUpsertForm collected, in call order. */
type RecordFormOp =
  | { op: 'loadData'; data: Data }
  | { op: 'addFiles'; key: string; files: Array<FileWire['__file']> }
  | { op: 'removeFiles'; key: string; names: string[] };

/**
 * ozzo's Errors.Error(): "title: Missing required value; email: Must be a valid email address."
 * (keys sorted; the server keeps its messages sentenized, so ozzo's own lower-case words, such as
 * "cannot be blank", read capitalised here).
 */
function ozzoText(errors: Data): string {
  const parts = Object.keys(errors)
    .sort()
    .map((key) => {
      const e = errors[key] as { message?: unknown } | null;
      const text = typeof e?.message === 'string' ? e.message : `(${ozzoText((e ?? {}) as Data)})`;
      return `${key}: ${text.replace(/\.$/, '')}`;
    });
  return parts.length ? `${parts.join('; ')}.` : '';
}

/** A form's field errors as 0.22's forms return them: the message ozzo words, the errors as data. */
class FormErrors extends Error {
  readonly status = 400;
  constructor(readonly data: Data) {
    super(ozzoText(data));
  }
}

/** The server's error as the form's: its field errors, else its own message (0.22 returns the save's error). */
function asFormError(err: unknown): unknown {
  if (err instanceof LoadError) return new FormErrors(err.errors);
  if (err instanceof ApiError && Object.keys(err.data).length) return new FormErrors(err.data);
  if (err instanceof ApiError) return new Error(typeof err.details === 'string' && err.details ? err.details : err.message);
  return err;
}

function fileField(collection: Collection, key: string) {
  const field = collection.schema.find((f) => f.name === key);
  if (!field || !fieldDefinition(field.type).uploads) throw new Error('invalid field key');
  return field;
}

async function uploadsOf(files: Array<FileWire['__file']>): Promise<UploadedFile[]> {
  const out: UploadedFile[] = [];
  for (const f of files) {
    const data = Buffer.from(f.bytes);
    out.push({ name: f.name, originalName: f.originalName, data, contentType: (await sniffContentType(data)).mime });
  }
  return out;
}

/** RecordUpsertForm.validate() / submit(): null, or the saved record's snapshot. */
async function recordForm(ctx: AppContext, submit: boolean, wire: RecordWire, ops: RecordFormOp[], manage: boolean): Promise<unknown> {
  const model = recordModelOf(ctx, wire);
  const { collection } = model;
  if (collection.type === 'view') throw new Error(`"${collection.name}" is a view collection`);
  // 0.22's loadFormDefaults: the form starts from the record's id, auth fields and values
  const form = new RecordForm({ collection, data: wire.isNew ? { ...newRecordModel(collection).data, ...model.data } : model.data }, wire.isNew);
  form.id = String(model.data.id ?? '');
  form.manageAccess = manage;
  for (const op of ops) {
    if (op.op === 'loadData') form.load(op.data, new Map());
    else if (op.op === 'addFiles') {
      fileField(collection, op.key);
      form.addFiles(op.key, await uploadsOf(op.files));
    } else {
      fileField(collection, op.key);
      form.removeFiles(op.key, op.names.length ? op.names : undefined);
    }
  }
  const saved = await submitRecordForm(ctx, form, submit);
  return saved ? toWire(toRecord(saved)) : null;
}

/** RecordPasswordLoginForm.submit(): the auth record the identity and password sign in as. */
async function passwordLogin(ctx: AppContext, collectionRef: string, identity: unknown, password: unknown): Promise<unknown> {
  const form = { identity, password };
  const errors = bodyErrors('requests/records/auth-with-password', form);
  if (Object.keys(errors).length) throw new FormErrors(errors);
  const collection = findCollection(ctx, collectionRef);
  if (!collection || collection.type !== 'auth') throw new Error('sql: no rows in result set');
  const opts = authOptions(collection);
  const id = String(identity);
  let row = null;
  if (isEmailAddress(id)) {
    if (opts.allowEmailAuth) row = findAuthRowByEmail(ctx, collection, id);
  } else if (opts.allowUsernameAuth) row = findAuthRowByUsername(ctx, collection, id);
  if (!row || !(await verifyPassword(String(password), row.passwordHash))) throw new Error('Invalid login credentials.');
  return toWire(toRecord(recordFromRow(collection, row)));
}

/** CollectionUpsertForm.submit(): the form's fields saved as the collections API saves them; the saved collection. */
function collectionForm(ctx: AppContext, fields: Data, existingId: string | null): unknown {
  const saved = saveCollection(ctx, fields, existingId, 'form');
  return toWire(toCollection(saved));
}

const INVALID_ID = fieldFailure('validation_invalid_id', 'The model id is invalid or already exists.');
const EMAIL_EXISTS = fieldFailure('validation_admin_email_exists', 'Admin email already exists.');
const NOT_THIS_ID = fieldFailure('validation_in_invalid', 'Must be a valid value.');

/**
 * AdminUpsertForm.submit(): the admins API's schema (requests/admins/create or update) and its
 * checks (a free id, an email no other admin has), then saved as the API saves (model hooks
 * included); a password sets a new hash and tokenKey. The saved admin.
 */
async function adminForm(ctx: AppContext, wire: unknown, fields: Data): Promise<unknown> {
  const current = adminRowFromWire(wire);
  if (!current) throw new Error('AdminUpsertForm expects an Admin');
  const isNew = (wire as { isNew?: unknown }).isNew === true;
  const existing = isNew ? null : (ctx.admins.findById(current.id) ?? null);
  if (!isNew && !existing) throw new Error('sql: no rows in result set');
  const body: Data = { ...fields, avatar: fields.avatar ?? existing?.avatar ?? 0, email: fields.email ?? existing?.email ?? '' };
  if (isNew && !body.id) delete body.id;
  const uniqueEmail = (v: unknown) => {
    const other = ctx.admins.findByEmail(String(v));
    return other && other.id !== existing?.id ? EMAIL_EXISTS : null;
  };
  const errors = isNew
    ? bodyErrors('requests/admins/create', body, { id: (v) => (ctx.admins.findById(String(v)) ? INVALID_ID : null), email: uniqueEmail })
    : bodyErrors('requests/admins/update', body, { id: (v) => (v === existing!.id ? null : NOT_THIS_ID), email: uniqueEmail });
  if (Object.keys(errors).length) throw new FormErrors(errors);
  const password = typeof body.password === 'string' ? body.password : '';
  const row: AdminRow = existing
    ? { ...existing, avatar: Number(body.avatar), email: String(body.email) }
    : { id: typeof body.id === 'string' ? body.id : '', avatar: Number(body.avatar), email: String(body.email), tokenKey: newTokenKey(), passwordHash: '', lastResetSentAt: '', created: '', updated: '' };
  if (password) Object.assign(row, { passwordHash: await hashPassword(password), tokenKey: newTokenKey(), lastResetSentAt: '' });
  const saved = await saveAdmin(ctx, row, isNew, isNew ? 'Failed to create admin.' : 'Failed to update admin.');
  return adminEventWire(saved);
}

/**
 * SettingsUpsertForm.submit(): the form's sections over the current settings, each checked with
 * its schema as the settings API checks them, then saved as the API saves them (model hooks).
 */
async function settingsForm(ctx: AppContext, fields: Data): Promise<null> {
  let next;
  try {
    next = mergePatch(ctx.settings.get(), fields);
  } catch (err) {
    if (err instanceof SettingsPatchError) throw new FormErrors(err.errors);
    throw err;
  }
  const errors = validateSettings(next, Object.keys(fields));
  if (Object.keys(errors).length) throw new FormErrors(errors);
  await saveSettings(ctx, next, 'An error occurred while submitting the form.');
  return null;
}

/** Runs one form call; errors come back as the form's. */
export function formCall(env: NamespaceEnv, kind: string, args: unknown[]): unknown {
  const what = `${kind}.submit()`;
  // the forms wait for bcrypt, the disk and the read pool: a transaction cannot
  if (env.inTransaction) throw new Error(`${what} cannot be used inside runInTransaction: the transaction cannot wait for the form (submit it after the transaction)`);
  const run = async (): Promise<unknown> => {
    switch (kind) {
      case 'RecordUpsertForm': {
        const [submit, wire, ops, manage] = args as [boolean, RecordWire, RecordFormOp[], boolean];
        return recordForm(env.ctx, submit, wire, ops, manage);
      }
      case 'RecordPasswordLoginForm': {
        const [collection, identity, password] = args as [string, unknown, unknown];
        return passwordLogin(env.ctx, collection, identity, password);
      }
      case 'AdminUpsertForm': {
        const [wire, fields] = args as [unknown, Data];
        return adminForm(env.ctx, wire, fields);
      }
      case 'SettingsUpsertForm':
        return settingsForm(env.ctx, args[0] as Data);
      case 'CollectionUpsertForm': {
        const [fields, existingId] = args as [Data, string | null];
        return collectionForm(env.ctx, fields, existingId);
      }
    }
    throw new Error(`${kind} is not supported by Outpost's pb_hooks yet`);
  };
  return run().catch((err: unknown) => {
    throw asFormError(err);
  });
}
