// 0.22's forms as hook code builds them (`new RecordUpsertForm($app, record)`, ...): the form
// collects what the handler gives it, and validate()/submit() hand that to the main thread, which
// runs the API's own form and services on it (../../forms-rpc.ts). Errors are 0.22's: a form's
// field errors throw an error whose message reads "name: cannot be blank." and which, uncaught,
// answers 400 "Something went wrong while processing your request." with those field errors as
// data (0.22's API error handler wraps any non-API error so).
import { Admin, Collection, JsRecord } from '../../../migrations/js-models';
import { unsupported } from '../../../migrations/js-unsupported';
import { isHookFile } from '../../hook-file';
import { fromWire, recordToWire, toWire, updateFromWire } from '../../models-wire';
import type { Call } from '../app';

const GENERIC = 'Something went wrong while processing your request.';
type Data = Record<string, unknown>;

/** A form call; an error with field errors keeps them for the answer, under 0.22's generic message. */
function submitForm(call: Call, kind: string, args: unknown[]): unknown {
  try {
    return call('forms', [kind, ...args]);
  } catch (err) {
    const api = (err as { api?: { status: number; message: string; data: unknown } }).api;
    if (api) (err as { api: unknown }).api = { status: 400, message: GENERIC, data: api.data };
    throw err;
  }
}

/** Go's json round trip of loadData's map (a DateTime becomes its text, as json.Marshal writes it). */
const jsonCopy = (v: unknown): Data => {
  const out = JSON.parse(JSON.stringify(v ?? {})) as unknown;
  return out && typeof out === 'object' && !Array.isArray(out) ? (out as Data) : {};
};

export function formClasses(call: Call): Record<string, new (...args: never[]) => object> {
  /** `new RecordUpsertForm($app, record)`: loadData, addFiles, removeFiles, validate, submit. */
  class RecordUpsertForm {
    readonly #record: JsRecord;
    readonly #ops: Data[] = [];
    #manage = false;

    constructor(_app: unknown, record: unknown) {
      if (!(record instanceof JsRecord)) throw new TypeError('RecordUpsertForm expects a Record');
      this.#record = record;
    }

    /** Lets the form set the auth fields only managers may (email, verified; a password without the old one). */
    setFullManageAccess(v: unknown): void {
      this.#manage = Boolean(v);
    }

    /** (Outpost's hooks have one Dao: the form saves with it.) */
    setDao(_dao: unknown): void {}

    loadData(data: unknown): void {
      this.#ops.push({ op: 'loadData', data: jsonCopy(data) });
    }

    /** The JSON body of `c.request()` (a multipart body's files are not offered: use addFiles). */
    loadRequest(request: unknown, keyPrefix?: unknown): void {
      const body = (request as { body?: unknown } | null)?.body;
      let data: unknown;
      try {
        data = typeof body === 'string' && body !== '' ? JSON.parse(body) : {};
      } catch {
        throw new Error('unsupported request content-type');
      }
      const prefix = typeof keyPrefix === 'string' ? keyPrefix : '';
      this.loadData(prefix && data && typeof data === 'object' ? (data as Data)[prefix] : data);
    }

    addFiles(key: unknown, ...files: unknown[]): void {
      const list = files.flat();
      if (!list.every(isHookFile)) throw new TypeError('addFiles expects $filesystem files');
      this.#ops.push({ op: 'addFiles', key: String(key), files: list.map((f) => ({ name: f.name, originalName: f.originalName, size: f.size, bytes: f.bytes })) });
    }

    removeFiles(key: unknown, ...names: unknown[]): void {
      this.#ops.push({ op: 'removeFiles', key: String(key), names: names.flat().map(String) });
    }

    validate(): void {
      submitForm(call, 'RecordUpsertForm', [false, recordToWire(this.#record), this.#ops, this.#manage]);
    }

    submit(...interceptors: unknown[]): void {
      if (interceptors.length) unsupported('RecordUpsertForm.submit() with interceptors');
      const saved = submitForm(call, 'RecordUpsertForm', [true, recordToWire(this.#record), this.#ops, this.#manage]);
      updateFromWire(this.#record, saved);
    }
  }

  /** `new RecordPasswordLoginForm($app, collection)`: identity + password; submit() gives the auth record. */
  class RecordPasswordLoginForm {
    identity = '';
    password = '';
    readonly #collection: string;

    constructor(_app: unknown, collection: unknown) {
      this.#collection = collection instanceof Collection ? collection.id || collection.name : String(collection ?? '');
    }

    setDao(_dao: unknown): void {}

    submit(...interceptors: unknown[]): unknown {
      if (interceptors.length) unsupported('RecordPasswordLoginForm.submit() with interceptors');
      return fromWire(submitForm(call, 'RecordPasswordLoginForm', [this.#collection, this.identity, this.password]));
    }
  }

  /** `new CollectionUpsertForm($app, collection)`: the collection's fields, set, then submit(). */
  class CollectionUpsertForm {
    id = '';
    type = 'base';
    name = '';
    system = false;
    schema: unknown = [];
    indexes: unknown = [];
    listRule: string | null = null;
    viewRule: string | null = null;
    createRule: string | null = null;
    updateRule: string | null = null;
    deleteRule: string | null = null;
    options: unknown = {};
    readonly #collection: Collection;

    constructor(_app: unknown, collection: unknown) {
      if (!(collection instanceof Collection)) throw new TypeError('CollectionUpsertForm expects a Collection');
      this.#collection = collection;
      Object.assign(this, jsonCopy(collection.toJSON()));
    }

    setDao(_dao: unknown): void {}

    submit(...interceptors: unknown[]): void {
      if (interceptors.length) unsupported('CollectionUpsertForm.submit() with interceptors');
      const { id, type, name, system, schema, indexes, listRule, viewRule, createRule, updateRule, deleteRule, options } = this;
      const fields = jsonCopy({ id, type, name, system, schema, indexes, listRule, viewRule, createRule, updateRule, deleteRule, options });
      const saved = submitForm(call, 'CollectionUpsertForm', [fields, this.#collection.isNew() ? null : this.#collection.id]);
      updateFromWire(this.#collection, saved);
    }
  }

  /** `new AdminUpsertForm($app, admin)`: id, avatar, email, password, passwordConfirm, then submit(). */
  class AdminUpsertForm {
    id = '';
    avatar = 0;
    email = '';
    password = '';
    passwordConfirm = '';
    readonly #admin: Admin;

    constructor(_app: unknown, admin: unknown) {
      if (!(admin instanceof Admin)) throw new TypeError('AdminUpsertForm expects an Admin');
      this.#admin = admin;
      Object.assign(this, { id: admin.id, avatar: admin.avatar, email: admin.email });
    }

    setDao(_dao: unknown): void {}

    submit(...interceptors: unknown[]): void {
      if (interceptors.length) unsupported('AdminUpsertForm.submit() with interceptors');
      const { id, avatar, email, password, passwordConfirm } = this;
      updateFromWire(this.#admin, submitForm(call, 'AdminUpsertForm', [toWire(this.#admin), jsonCopy({ id, avatar, email, password, passwordConfirm })]));
    }
  }

  /** `new SettingsUpsertForm($app)`: the settings' sections (meta, smtp, ...), changed, then submit(). */
  class SettingsUpsertForm {
    constructor(app: unknown) {
      Object.assign(this, jsonCopy((app as { settings?: () => unknown } | null)?.settings?.() ?? call('settings', [])));
    }

    setDao(_dao: unknown): void {}

    submit(...interceptors: unknown[]): void {
      if (interceptors.length) unsupported('SettingsUpsertForm.submit() with interceptors');
      submitForm(call, 'SettingsUpsertForm', [jsonCopy({ ...this })]);
    }
  }

  return { RecordUpsertForm, RecordPasswordLoginForm, CollectionUpsertForm, AdminUpsertForm, SettingsUpsertForm } as unknown as Record<string, new (...args: never[]) => object>;
}
