// Record create/update as 0.22's forms.RecordUpsert does it: load the submitted data over the
// current values (modifiers and legacy file deletions resolved, the keep-list semantics of file
// fields, uploads appended or replacing), validate the system fields and then the schema fields,
// fill the record (custom id, generated username, password hash + new tokenKey) and save it in a
// transaction; unique index failures come back as field errors. Uploaded files are written before
// the commit and removed again if it fails; replaced files are deleted after it.
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { getCollections } from '../collections/store';
import { QueryTimeoutError, transaction } from '../db/database';
import { ApiError } from '../core/errors';
import { equals, isEmailAddress, length, match, required, validateFields, type Rule } from '../core/field-rules';
import { formatPbDate } from '../query/macros';
import type { RequestInfo } from '../query/record-resolver';
import { quoteIdent as q } from '../query/sql';
import { hashPassword, newId, newTokenKey, randomString, verifyPassword } from '../services/passwords';
import { getStorage } from '../services/storage';
import { emitRecordChange } from './events';
import { recordFromRow, type RecordModel } from './model';
import { compileRule, manageRuleCondition } from './rules';
import { findRowById, insertRecord, isValueUnique, pendingRowOf, rowByIdQuery, updateRecord } from './store';
import { sentenize, validateRecordData, type FieldErrors, type UploadedFile } from './validate';
import { castBool, castString, prepareValue, replaceModifiers, toUniqueStrings, zeroValue, type RecordData } from './values';

export const LOAD_FAILED = 'Failed to load the submitted data due to invalid formatting.';
export const CREATE_FAILED = 'Failed to create record.';
export const UPDATE_FAILED = 'Failed to update record.';

/** A load failure (e.g. unknown file names): 400 with the load message and these field errors. */
class LoadError extends Error {
  constructor(readonly errors: FieldErrors) {
    super('failed to load the record data');
  }
}

/** The id rule of 0.22: no whitespace and none of @ # $ & | . , ' " \ / */
const ID_REGEX = /^[^@#$&|.,'"\\/\s]+$/;
const USERNAME_REGEX = /^[\w][\w.-]*$/;

/** An empty record of `collection` (what a create starts from). */
export function newRecordModel(collection: Collection): RecordModel {
  const data: RecordData = { id: '', created: '', updated: '' };
  if (collection.type === 'auth') {
    Object.assign(data, {
      username: '',
      email: '',
      emailVisibility: false,
      verified: false,
      tokenKey: '',
      passwordHash: '',
      lastResetSentAt: '',
      lastVerificationSentAt: '',
    });
  }
  for (const field of collection.schema) data[field.name] = zeroValue(field);
  return { collection, data };
}

class RecordForm {
  readonly collection: Collection;
  readonly isNew: boolean;
  manageAccess = false;
  id: string;
  username = '';
  email = '';
  emailVisibility = false;
  verified = false;
  password = '';
  passwordConfirm = '';
  oldPassword = '';
  /** Schema field values (normalised). */
  data: RecordData = {};
  filesToUpload = new Map<string, UploadedFile[]>();
  filesToDelete: string[] = [];

  constructor(readonly record: RecordModel, isNew: boolean) {
    this.collection = record.collection;
    this.isNew = isNew;
    this.id = isNew ? '' : String(record.data.id);
    if (this.collection.type === 'auth') {
      this.username = String(record.data.username ?? '');
      this.email = String(record.data.email ?? '');
      this.emailVisibility = !!record.data.emailVisibility;
      this.verified = !!record.data.verified;
    }
    for (const field of this.collection.schema) {
      const v = record.data[field.name];
      this.data[field.name] = Array.isArray(v) ? [...v] : v;
    }
  }

  /** LoadData + AddFiles. Throws LoadError for unknown file names. */
  load(requestData: RecordData, uploads: Map<string, UploadedFile[]>): void {
    const has = (k: string) => Object.hasOwn(requestData, k);
    if (has('id')) this.id = castString(requestData.id);
    if (this.collection.type === 'auth') {
      if (has('username')) this.username = castString(requestData.username);
      if (has('email')) this.email = castString(requestData.email);
      if (has('emailVisibility')) this.emailVisibility = castBool(requestData.emailVisibility);
      if (has('verified')) this.verified = castBool(requestData.verified);
      if (has('password')) this.password = castString(requestData.password);
      if (has('passwordConfirm')) this.passwordConfirm = castString(requestData.passwordConfirm);
      if (has('oldPassword')) this.oldPassword = castString(requestData.oldPassword);
    }
    const data = replaceModifiers(this.collection, this.data, requestData);

    for (const field of this.collection.schema) {
      const key = field.name;
      const value = Object.hasOwn(data, key) ? prepareValue(field, data[key]) : this.data[key];
      if (field.type !== 'file') {
        this.data[key] = value;
        continue;
      }
      const oldNames = toUniqueStrings(this.record.data[key]);
      const submitted = toUniqueStrings(value);
      if (submitted.length > oldNames.length || submitted.some((n) => !oldNames.includes(n))) {
        throw new LoadError({ [key]: { code: 'validation_unknown_filenames', message: 'The field contains unknown filenames.' } });
      }
      if (submitted.length === 0 && oldNames.length > 0) this.removeFiles(key);
      else if (oldNames.length > 0) {
        const toDelete = oldNames.filter((n) => !submitted.includes(n));
        if (toDelete.length) this.removeFiles(key, toDelete);
      }
      if (submitted.length > 0) this.data[key] = prepareValue(field, submitted);
    }

    for (const [key, files] of uploads) this.addFiles(key, files);
  }

  addFiles(key: string, files: UploadedFile[]): void {
    const field = this.collection.schema.find((f) => f.name === key);
    if (!field || field.type !== 'file' || files.length === 0) return;
    const oldNames = toUniqueStrings(this.data[key]);
    if (Number(field.options.maxSelect) === 1) {
      if (oldNames.length) this.filesToDelete = [...new Set([...this.filesToDelete, ...oldNames])];
      this.filesToUpload.set(key, [files[0]]);
      this.data[key] = prepareValue(field, files[0].name);
    } else {
      this.filesToUpload.set(key, [...(this.filesToUpload.get(key) ?? []), ...files]);
      this.data[key] = prepareValue(field, [...oldNames, ...files.map((f) => f.name)]);
    }
  }

  removeFiles(key: string, toDelete?: string[]): void {
    const field = this.collection.schema.find((f) => f.name === key);
    if (!field || field.type !== 'file') return;
    let existing = toUniqueStrings(this.data[key]);
    const names = toDelete ?? [...existing];
    this.filesToDelete.push(...existing.filter((n) => names.includes(n)));
    existing = existing.filter((n) => !names.includes(n));
    const uploads = this.filesToUpload.get(key);
    if (uploads) this.filesToUpload.set(key, uploads.filter((f) => !names.includes(f.name)));
    this.data[key] = prepareValue(field, existing);
  }

  /** Validate(): system fields first; the schema fields only when those pass. */
  async validate(ctx: AppContext): Promise<FieldErrors> {
    const spec: Record<string, Rule[]> = {};
    const values: Record<string, unknown> = { id: this.id };
    if (this.isNew) {
      spec.id = [
        length(15, 15),
        match(ID_REGEX),
        (v) => (v && !this.isIdUnique(ctx, String(v)) ? { code: 'validation_invalid_id', message: 'The model id is invalid or already exists.' } : null),
      ];
    } else {
      spec.id = [(v) => (v && v !== this.record.data.id ? { code: 'validation_in_invalid', message: 'Must be a valid value.' } : null)];
    }

    if (this.collection.type === 'auth') {
      const opts = this.collection.options;
      const recordId = String(this.record.data.id ?? '');
      Object.assign(values, {
        username: this.username,
        email: this.email,
        verified: this.verified,
        password: this.password,
        passwordConfirm: this.passwordConfirm,
        oldPassword: this.oldPassword,
      });
      spec.username = [
        ...(this.isNew ? [] : [required]),
        length(3, 150),
        match(USERNAME_REGEX),
        (v) =>
          v && !isValueUnique(ctx, this.collection, 'username', String(v), recordId, true)
            ? { code: 'validation_invalid_username', message: 'The username is invalid or already in use.' }
            : null,
      ];
      spec.email = [
        ...(opts.requireEmail ? [required] : []),
        (v) => (v && !this.isNew && !this.manageAccess && v !== this.record.data.email ? { code: 'validation_in_invalid', message: 'Must be a valid value.' } : null),
        length(1, 255),
        (v) => (v && !isEmailAddress(String(v)) ? { code: 'validation_is_email', message: 'Must be a valid email address.' } : null),
        (v) => (v && !emailDomainAllowed(String(v), opts) ? { code: 'validation_email_domain_not_allowed', message: 'Email domain is not allowed.' } : null),
        (v) =>
          v && !isValueUnique(ctx, this.collection, 'email', String(v), recordId, true)
            ? { code: 'validation_invalid_email', message: 'The email is invalid or already in use.' }
            : null,
      ];
      spec.verified = [(v) => (v && !this.manageAccess && v !== !!this.record.data.verified ? { code: 'validation_in_invalid', message: 'Must be a valid value.' } : null)];
      const minLen = Math.max(0, Number(opts.minPasswordLength) || 0);
      spec.password = [...(this.isNew || this.passwordConfirm || this.oldPassword ? [required] : []), length(minLen, 72)];
      spec.passwordConfirm = [...(this.isNew || this.password || this.oldPassword ? [required] : []), equals(this.password)];
      if (!this.isNew && !this.manageAccess && (this.password || this.passwordConfirm)) {
        const ok = this.oldPassword ? await verifyPassword(this.oldPassword, this.record.data.passwordHash) : false;
        spec.oldPassword = [required, (v) => (v && !ok ? { code: 'validation_invalid_old_password', message: 'Missing or invalid old password.' } : null)];
      }
    }

    const base = validateFields(values, spec) as FieldErrors;
    if (Object.keys(base).length > 0) return base;
    return validateRecordData(ctx, this.collection, this.data, this.filesToUpload);
  }

  /** 0.22's UniqueId: the id is free in this collection (other auth collections: see saveAuthIdCheck). */
  private isIdUnique(ctx: AppContext, id: string): boolean {
    return ctx.db.prepare(`SELECT 1 FROM ${q(this.collection.name)} WHERE ${q('id')} = ? LIMIT 1`).get(id) === undefined;
  }

  /** ValidateAndFill's second half: the record to save (password hashed once and cached). */
  async fill(ctx: AppContext): Promise<RecordModel> {
    const data: RecordData = { ...this.record.data };
    const now = formatPbDate(new Date());
    if (this.isNew) {
      data.id = this.id || newId();
      data.created = now;
    }
    data.updated = now;
    if (this.collection.type === 'auth') {
      let username = this.username;
      if (this.isNew && username === '') username = this.suggestUsername(ctx);
      if (username !== '') data.username = username;
      if (this.isNew || this.manageAccess) data.email = this.email;
      data.emailVisibility = this.emailVisibility;
      if (this.manageAccess) data.verified = this.verified;
      if (this.password !== '' && this.password === this.passwordConfirm) {
        this.hashed ??= await hashPassword(this.password);
        data.passwordHash = this.hashed;
        data.tokenKey = newTokenKey();
      } else if (this.isNew && !data.tokenKey) {
        data.tokenKey = newTokenKey();
      }
    }
    for (const field of this.collection.schema) data[field.name] = this.data[field.name];
    return { collection: this.collection, data };
  }

  private hashed?: string;
  private suggested?: string;

  private suggestUsername(ctx: AppContext): string {
    if (this.suggested) return this.suggested;
    const base = this.collection.name + randomString(5, '123456789');
    let username = base;
    for (let i = 0; i < 10; i++) {
      if (isValueUnique(ctx, this.collection, 'username', username, '', true)) break;
      username = base + randomString(3 + i, '123456789');
    }
    this.suggested = username;
    return username;
  }
}

function emailDomainAllowed(email: string, opts: Record<string, unknown>): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const only = Array.isArray(opts.onlyEmailDomains) ? (opts.onlyEmailDomains as string[]) : [];
  const except = Array.isArray(opts.exceptEmailDomains) ? (opts.exceptEmailDomains as string[]) : [];
  if (only.length > 0 && !only.includes(domain)) return false;
  if (except.length > 0 && except.includes(domain)) return false;
  return true;
}

/** prepareError: UNIQUE constraint failures on schema fields → validation_not_unique. */
function uniqueErrors(collection: Collection, error: unknown): FieldErrors | null {
  const msg = String(error instanceof Error ? error.message : error).toLowerCase();
  if (!msg.includes('unique constraint failed')) return null;
  const text = msg.trim().replace(/,/g, ' ') + ' ';
  const errors: FieldErrors = {};
  for (const f of collection.schema) {
    if (text.includes(`${collection.name}.${f.name}`.toLowerCase() + ' ')) {
      errors[f.name] = { code: 'validation_not_unique', message: sentenize('Value must be unique') };
    }
  }
  return Object.keys(errors).length ? errors : null;
}

const failed = (message: string, data: FieldErrors = {}, details?: unknown) => new ApiError(400, message, data, details);

class DryRunDone extends Error {}

export interface UpsertInput {
  data: RecordData;
  uploads: Map<string, UploadedFile[]>;
  info: RequestInfo;
}

/**
 * The create-rule check of 0.22: the record must be insertable (a dry-run INSERT in a write
 * transaction that is always rolled back: unique and id errors come first, as in 0.22) and then
 * found under the rule as if inserted. The rule runs on the read pool, under the request budget,
 * against the committed data plus the pending row, so a hostile rule never holds the writer.
 * Returns whether the caller may manage the new record (auth manageRule), or throws the 400.
 */
async function checkCreateRule(ctx: AppContext, collection: Collection, input: UpsertInput): Promise<boolean> {
  const rule = collection.createRule ?? '';
  const form = new RecordForm(newRecordModel(collection), true);
  form.manageAccess = true;
  try {
    form.load(input.data, input.uploads);
  } catch (err) {
    if (err instanceof LoadError) throw failed(LOAD_FAILED, err.errors);
    throw err;
  }
  form.verified = false;
  const errors = await form.validate(ctx);
  if (Object.keys(errors).length) throw failed(CREATE_FAILED, errors);
  const record = await form.fill(ctx);
  dryRunInsert(ctx, record);

  const id = String(record.data.id);
  let found: unknown[];
  try {
    const queries = [rowByIdQuery(collection, id, rule === '' ? null : compileRule(ctx, collection, rule, input.info, true))];
    const manageCond = manageRuleCondition(ctx, record, input.info);
    if (manageCond) queries.push(rowByIdQuery(collection, id, manageCond));
    found = await ctx.reads.batch(queries, { pending: pendingRowOf(record) });
  } catch (err) {
    if (err instanceof QueryTimeoutError) throw err;
    throw failed(CREATE_FAILED, {}, String(err));
  }
  if (!found[0]) throw failed(CREATE_FAILED, {}, 'create rule failure');
  return Boolean(found[1]);
}

/** Inserts `record` in a write transaction that is always rolled back (its errors as 0.22 words them). */
function dryRunInsert(ctx: AppContext, record: RecordModel): void {
  try {
    ctx.db.transaction(() => {
      saveAuthIdCheck(ctx, record);
      insertRecord(ctx, record);
      throw new DryRunDone();
    })();
  } catch (err) {
    if (err instanceof DryRunDone) return;
    if (err instanceof ApiError) throw err;
    throw failed(CREATE_FAILED, uniqueErrors(record.collection, err) ?? {}, String(err));
  }
}

async function writeUploads(ctx: AppContext, record: RecordModel, form: RecordForm): Promise<Array<() => Promise<void>>> {
  const storage = getStorage(ctx);
  const undo: Array<() => Promise<void>> = [];
  const collectionId = record.collection.id;
  const recordId = String(record.data.id);
  try {
    for (const files of form.filesToUpload.values()) {
      for (const f of files) {
        await storage.save(collectionId, recordId, f.name, f.data, f.contentType, f.originalName);
        undo.push(() => storage.remove(collectionId, recordId, f.name));
      }
    }
  } catch (err) {
    for (const u of undo) await u().catch(() => undefined);
    throw err;
  }
  return undo;
}

async function deleteOldFiles(ctx: AppContext, record: RecordModel, names: string[]): Promise<void> {
  const storage = getStorage(ctx);
  const kept = new Set(
    record.collection.schema.filter((f) => f.type === 'file').flatMap((f) => toUniqueStrings(record.data[f.name])),
  );
  for (const name of new Set(names)) {
    if (kept.has(name)) continue;
    await storage.remove(record.collection.id, String(record.data.id), name).catch((err) => {
      console.error('[records] failed to delete file', name, err);
    });
  }
}

/** POST /records: returns the saved record (read back from the table). */
export async function createRecord(ctx: AppContext, collection: Collection, input: UpsertInput): Promise<RecordModel> {
  let manage = input.info.isAdmin;
  if (!input.info.isAdmin && collection.createRule !== null) manage = await checkCreateRule(ctx, collection, input);

  const form = new RecordForm(newRecordModel(collection), true);
  form.manageAccess = manage;
  return loadAndSave(ctx, form, input, 'create');
}

/** PATCH /records/:id on an already authorised record. */
export async function updateExistingRecord(
  ctx: AppContext,
  existing: RecordModel,
  input: UpsertInput,
  manageAccess: boolean,
): Promise<RecordModel> {
  const form = new RecordForm(existing, false);
  form.manageAccess = manageAccess;
  return loadAndSave(ctx, form, input, 'update');
}

/** Binds the request into the form, validates it (a failure names the action), fills and saves the record. */
async function loadAndSave(ctx: AppContext, form: RecordForm, input: UpsertInput, action: 'create' | 'update'): Promise<RecordModel> {
  try {
    form.load(input.data, input.uploads);
  } catch (err) {
    if (err instanceof LoadError) throw failed(LOAD_FAILED, err.errors);
    throw err;
  }
  const errors = await form.validate(ctx);
  if (Object.keys(errors).length) throw failed(action === 'create' ? CREATE_FAILED : UPDATE_FAILED, errors);
  const record = await form.fill(ctx);
  return save(ctx, form, record, action);
}

async function save(ctx: AppContext, form: RecordForm, record: RecordModel, action: 'create' | 'update'): Promise<RecordModel> {
  const message = action === 'create' ? CREATE_FAILED : UPDATE_FAILED;
  const undo = await writeUploads(ctx, record, form);
  let saved: RecordModel;
  try {
    saved = transaction(ctx.db, () => {
      if (action === 'create') {
        saveAuthIdCheck(ctx, record);
        insertRecord(ctx, record);
      }
      else updateRecord(ctx, record, String(form.record.data.id));
      const row = findRowById(ctx, record.collection, String(record.data.id));
      if (!row) throw new Error('the saved record could not be read back');
      return recordFromRow(record.collection, row);
    });
  } catch (err) {
    for (const u of undo) await u().catch(() => undefined);
    const unique = uniqueErrors(record.collection, err);
    if (unique) throw failed(message, unique);
    throw failed(message, {}, String(err));
  }
  await deleteOldFiles(ctx, saved, form.filesToDelete);
  emitRecordChange(ctx, { action, record: saved });
  return saved;
}

/**
 * 0.22's SaveRecord cross-check: an auth record id must be unique across every auth collection
 * (so `@request.auth.id` names one record). Like 0.22 it is a save failure, not a field error:
 * 400 'Failed to create record.' with empty data.
 */
function saveAuthIdCheck(ctx: AppContext, record: RecordModel): void {
  if (record.collection.type !== 'auth') return;
  for (const c of getCollections(ctx)) {
    if (c.type !== 'auth' || c.id === record.collection.id) continue;
    if (ctx.db.prepare(`SELECT 1 FROM ${q(c.name)} WHERE ${q('id')} = ? LIMIT 1`).get(String(record.data.id)) !== undefined) {
      throw new ApiError(400, CREATE_FAILED, {}, 'the auth record ID must be unique across all auth collections');
    }
  }
}
