// The record form of a create or update (0.22's forms.RecordUpsert before the save): the submitted
// data loaded over the current values (modifiers, legacy file deletions, the keep-list of file
// fields, uploads appended or replacing), the system and schema fields validated, and the record
// filled (custom id, generated username, password hash + new tokenKey). ./upsert.ts saves it.
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { formatPbDate } from '../query/macros';
import { hashPassword, newId, newTokenKey, randomString, verifyPassword } from '../services/passwords';
import type { RecordModel } from './model';
import { validateRecordData, type FieldErrors, type UploadedFile } from './validate';
import { systemFieldErrors } from './system-fields';
import { prepareValue, replaceModifiers, zeroValue, type RecordData } from '../../src/fields/record-values';
import { fieldDefinition } from '../../src/fields/registry';
import { castBool, castString, toUniqueStrings } from '../../src/fields/shared/casts';

export const LOAD_FAILED = 'Failed to load the submitted data due to invalid formatting.';

/** A load failure (e.g. unknown file names): 400 with the load message and these field errors. */
export class LoadError extends Error {
  constructor(readonly errors: FieldErrors) {
    super('failed to load the record data');
  }
}

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

export class RecordForm {
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
      if (!fieldDefinition(field.type).uploads) {
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
    if (!field || !fieldDefinition(field.type).uploads || files.length === 0) return;
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
    if (!field || !fieldDefinition(field.type).uploads) return;
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
    const auth = this.collection.type === 'auth' ? this.collection.options : undefined;
    const recordId = String(this.record.data.id ?? '');
    const needsOldPassword = Boolean(auth) && !this.isNew && !this.manageAccess && Boolean(this.password || this.passwordConfirm);
    const oldPasswordMatches = needsOldPassword && this.oldPassword ? await verifyPassword(this.oldPassword, this.record.data.passwordHash) : false;
    const fields = auth
      ? { id: this.id, username: this.username, email: this.email, verified: this.verified, password: this.password, passwordConfirm: this.passwordConfirm, oldPassword: this.oldPassword }
      : { id: this.id };
    const base = systemFieldErrors(fields, {
      isNew: this.isNew,
      auth: auth && { requireEmail: Boolean(auth.requireEmail), minPasswordLength: Number(auth.minPasswordLength) || 0 },
      current: { id: recordId, email: String(this.record.data.email ?? ''), verified: Boolean(this.record.data.verified) },
      manageAccess: this.manageAccess,
      needsOldPassword,
      oldPasswordMatches,
      idIsFree: (id) => this.isIdUnique(ctx, id),
      isUnique: (field, value) => ctx.records.isValueUnique(this.collection, field, value, recordId, true),
      emailDomainAllowed: (email) => emailDomainAllowed(email, auth ?? {}),
    }) as FieldErrors;
    if (Object.keys(base).length > 0) return base;
    return validateRecordData(ctx, this.collection, this.data, this.filesToUpload);
  }

  /** 0.22's UniqueId: the id is free in this collection (other auth collections: see saveAuthIdCheck). */
  private isIdUnique(ctx: AppContext, id: string): boolean {
    return !ctx.records.hasId(this.collection, id);
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
      if (ctx.records.isValueUnique(this.collection, 'username', username, '', true)) break;
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
