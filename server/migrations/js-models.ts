// The model classes a 0.22 migration builds: `new Collection(data)`, `new SchemaField(data)`,
// `new Schema(fields)`, `new Record(collection, data)`, `new Admin(data)`. They hold plain data
// (JSON.stringify gives what the API would take) plus the Go methods migrations call; the Dao
// (./js-dao.ts) turns them into domain calls.
import bcrypt from 'bcryptjs';
import { newTokenKey, randomString } from '../services/passwords';
import { mayBlock } from '../core/blocking-guard';

type Data = Record<string, unknown>;
const isObj = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A deep copy through JSON, as structConstructorUnmarshal does (json.Marshal then Unmarshal). */
const viaJson = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/** bcrypt as PocketBase writes it ($2a$, cost 12). */
function hashPasswordSync(plain: string): string {
  mayBlock('a password hash');
  const hash = bcrypt.hashSync(plain, 12);
  return hash.startsWith('$2b$') ? `$2a$${hash.slice(4)}` : hash;
}

export class SchemaField {
  system = false;
  id = '';
  name = '';
  type = '';
  required = false;
  presentable = false;
  unique = false;
  options: Data = {};

  constructor(data?: unknown) {
    const d = viaJson(data);
    if (!isObj(d)) return;
    if (typeof d.system === 'boolean') this.system = d.system;
    for (const k of ['id', 'name', 'type'] as const) if (typeof d[k] === 'string') this[k] = d[k] as string;
    for (const k of ['required', 'presentable', 'unique'] as const) if (typeof d[k] === 'boolean') this[k] = d[k] as boolean;
    if (isObj(d.options)) this.options = d.options;
  }
}

const toField = (f: unknown): SchemaField => (f instanceof SchemaField ? f : new SchemaField(f));

export class Schema {
  #fields: SchemaField[];

  constructor(fields?: unknown) {
    this.#fields = Array.isArray(fields) ? fields.map(toField) : [];
  }

  fields(): SchemaField[] {
    return this.#fields;
  }

  getFieldById(id: string): SchemaField | null {
    return this.#fields.find((f) => f.id === id) ?? null;
  }

  getFieldByName(name: string): SchemaField | null {
    return this.#fields.find((f) => f.name === name) ?? null;
  }

  removeField(id: string): void {
    this.#fields = this.#fields.filter((f) => f.id !== id);
  }

  /** Replaces the field of the same id, or appends it (an id is generated when blank). */
  addField(field: unknown): void {
    const f = toField(field);
    if (!f.id) f.id = randomString(8).toLowerCase();
    const i = this.#fields.findIndex((x) => x.id === f.id);
    if (i >= 0) this.#fields[i] = f;
    else this.#fields.push(f);
  }

  asMap(): Record<string, SchemaField> {
    return Object.fromEntries(this.#fields.map((f) => [f.name, f]));
  }

  clone(): Schema {
    return new Schema(viaJson(this.#fields));
  }

  initFieldsOptions(): void {}

  toJSON(): SchemaField[] {
    return this.#fields;
  }
}

const RULES = ['listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule'] as const;

export class Collection {
  id = '';
  created = '';
  updated = '';
  name = '';
  type = 'base';
  system = false;
  schema: Schema = new Schema();
  indexes: string[] = [];
  listRule: string | null = null;
  viewRule: string | null = null;
  createRule: string | null = null;
  updateRule: string | null = null;
  deleteRule: string | null = null;
  options: Data = {};
  #isNew = true;

  constructor(data?: unknown) {
    this.load(data);
  }

  /** json.Unmarshal into this collection (keys absent from `data` keep their value). */
  load(data: unknown): void {
    const d = viaJson(data);
    if (!isObj(d)) return;
    for (const k of ['id', 'created', 'updated', 'name', 'type'] as const) if (typeof d[k] === 'string') this[k] = d[k] as string;
    if (typeof d.system === 'boolean') this.system = d.system;
    if (Array.isArray(d.schema)) this.schema = new Schema(d.schema);
    if (Array.isArray(d.indexes)) this.indexes = d.indexes.map(String);
    for (const k of RULES) if (k in d) this[k] = typeof d[k] === 'string' ? (d[k] as string) : null;
    if (isObj(d.options)) this.options = d.options;
  }

  /** The JSON the collections API takes (a schema given as a plain array is accepted too). */
  toJSON(): Data {
    const schema = this.schema instanceof Schema ? this.schema.toJSON() : Array.isArray(this.schema) ? (this.schema as unknown[]).map(toField) : [];
    const out: Data = { id: this.id, created: this.created, updated: this.updated, name: this.name, type: this.type, system: this.system, schema, indexes: this.indexes };
    for (const k of RULES) out[k] = this[k];
    out.options = this.options;
    return out;
  }

  getId = (): string => this.id;
  setId = (id: string): void => void (this.id = id);
  hasId = (): boolean => this.id !== '';
  isNew = (): boolean => this.#isNew;
  markAsNew = (): void => void (this.#isNew = true);
  markAsNotNew = (): void => void (this.#isNew = false);
  isAuth = (): boolean => this.type === 'auth';
  isBase = (): boolean => this.type === 'base';
  isView = (): boolean => this.type === 'view';
  tableName = (): string => '_collections';
  baseFilesPath = (): string => this.id;
  authOptions = (): Data => this.options;
  baseOptions = (): Data => this.options;
  viewOptions = (): Data => this.options;
}

const AUTH_KEYS = ['username', 'email', 'emailVisibility', 'verified', 'tokenKey', 'passwordHash', 'lastResetSentAt', 'lastVerificationSentAt'];

/** A `$filesystem` file (server/hooks/hook-file.ts) set on a file field: kept as it is, for the save to upload. */
const isFile = (v: unknown): boolean => typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[Symbol.for('outpost.hooks.file')] === true;
const keepFiles = (v: unknown): unknown => (isFile(v) ? v : Array.isArray(v) && v.some(isFile) ? v.map((x) => (isFile(x) ? x : viaJson(x))) : undefined);

type Expanded = JsRecord | JsRecord[];

export class JsRecord {
  #collection: Collection | null;
  #data: Data = {};
  #isNew = true;
  #expand: Record<string, Expanded> = {};

  constructor(collection?: unknown, data?: unknown) {
    this.#collection = collection instanceof Collection ? collection : null;
    if (data !== undefined) this.load(data);
  }

  collection = (): Collection | null => this.#collection;

  get id(): string {
    return String(this.#data.id ?? '');
  }

  set id(v: string) {
    this.#data.id = String(v);
  }

  get created(): string {
    return String(this.#data.created ?? '');
  }

  get updated(): string {
    return String(this.#data.updated ?? '');
  }

  get = (key: string): unknown => this.#data[key] ?? null;
  set = (key: string, value: unknown): void => {
    if (key === 'password') this.setPassword(String(value));
    else this.#data[key] = keepFiles(value) ?? viaJson(value) ?? null;
  };
  load = (data: unknown): void => {
    if (!isObj(data)) return;
    for (const [k, v] of Object.entries(data)) this.set(k, v);
  };
  getId = (): string => this.id;
  setId = (id: string): void => void (this.id = id);
  getString = (key: string): string => {
    const v = this.#data[key];
    return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  getInt = (key: string): number => Math.trunc(Number(this.#data[key]) || 0);
  getFloat = (key: string): number => Number(this.#data[key]) || 0;
  getBool = (key: string): boolean => {
    const v = this.#data[key];
    return v === true || v === 1 || v === 'true' || v === '1';
  };
  getStringSlice = (key: string): string[] => {
    const v = this.#data[key];
    return Array.isArray(v) ? [...new Set(v.map(String))] : v === null || v === undefined || v === '' ? [] : [String(v)];
  };
  getDateTime = (key: string): string => this.getString(key);
  username = (): string => this.getString('username');
  setUsername = (v: string): void => this.set('username', v);
  email = (): string => this.getString('email');
  setEmail = (v: string): void => this.set('email', v);
  verified = (): boolean => this.getBool('verified');
  setVerified = (v: boolean): void => this.set('verified', Boolean(v));
  emailVisibility = (): boolean => this.getBool('emailVisibility');
  setEmailVisibility = (v: boolean): void => this.set('emailVisibility', Boolean(v));
  tokenKey = (): string => this.getString('tokenKey');
  setTokenKey = (v: string): void => this.set('tokenKey', v);
  refreshTokenKey = (): void => this.set('tokenKey', newTokenKey());
  passwordHash = (): string => this.getString('passwordHash');
  setPassword = (plain: string): void => {
    if (!plain) throw new Error('The provided plain password is empty');
    this.#data.passwordHash = hashPasswordSync(String(plain));
    this.refreshTokenKey();
  };
  validatePassword = (plain: string): boolean => {
    const hash = this.passwordHash();
    try {
      mayBlock('a password check');
      return hash.startsWith('$2') && bcrypt.compareSync(String(plain), hash);
    } catch {
      return false;
    }
  };
  isNew = (): boolean => this.#isNew;
  markAsNew = (): void => void (this.#isNew = true);
  markAsNotNew = (): void => void (this.#isNew = false);
  /** The values the Dao saves: id, created, updated, the auth keys and anything set. */
  data = (): Data => ({ ...this.#data });
  /** The expanded relations (`$apis.enrichRecord`, expandRecord): field name → record(s). */
  expand = (): Record<string, Expanded> => ({ ...this.#expand });
  setExpand = (expand: unknown): void => {
    this.#expand = {};
    this.mergeExpand(expand);
  };
  mergeExpand = (expand: unknown): void => {
    if (!isObj(expand)) return;
    for (const [k, v] of Object.entries(expand)) {
      if (v instanceof JsRecord || (Array.isArray(v) && v.every((x) => x instanceof JsRecord))) this.#expand[k] = v as Expanded;
    }
  };
  /** 0.22's ExpandedOne: the expanded record (the first of a list), or null. */
  expandedOne = (name: string): JsRecord | null => {
    const v = this.#expand[String(name)];
    return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
  };
  /** 0.22's ExpandedAll: the expanded records (a single one as a list of one). */
  expandedAll = (name: string): JsRecord[] => {
    const v = this.#expand[String(name)];
    return Array.isArray(v) ? [...v] : v ? [v] : [];
  };
  publicExport = (): Data => {
    const out: Data = { ...this.#data, collectionId: this.#collection?.id ?? '', collectionName: this.#collection?.name ?? '' };
    for (const k of ['tokenKey', 'passwordHash', 'lastResetSentAt', 'lastVerificationSentAt']) delete out[k];
    if (Object.keys(this.#expand).length) out.expand = Object.fromEntries(Object.entries(this.#expand).map(([k, v]) => [k, Array.isArray(v) ? v.map((r) => r.publicExport()) : v.publicExport()]));
    return out;
  };
  toJSON = (): Data => this.publicExport();
  static authKeys = AUTH_KEYS;

  /** Gives `record` its collection (a query filling a `new Record()` it was handed: 0.22 sets the collection too). */
  static attach(record: JsRecord, collection: Collection | null): void {
    record.#collection = collection;
  }
}

export class Admin {
  id = '';
  created = '';
  updated = '';
  avatar = 0;
  email = '';
  tokenKey = '';
  passwordHash = '';
  lastResetSentAt = '';
  #isNew = true;

  constructor(data?: unknown) {
    const d = viaJson(data);
    if (!isObj(d)) return;
    for (const k of ['id', 'created', 'updated', 'email'] as const) if (typeof d[k] === 'string') this[k] = d[k] as string;
    if (typeof d.avatar === 'number') this.avatar = d.avatar;
  }

  getId = (): string => this.id;
  isNew = (): boolean => this.#isNew;
  markAsNew = (): void => void (this.#isNew = true);
  markAsNotNew = (): void => void (this.#isNew = false);
  setPassword = (plain: string): void => {
    if (!plain) throw new Error('The provided plain password is empty');
    this.passwordHash = hashPasswordSync(String(plain));
    this.refreshTokenKey();
  };
  validatePassword = (plain: string): boolean => {
    try {
      mayBlock('a password check');
      return this.passwordHash.startsWith('$2') && bcrypt.compareSync(String(plain), this.passwordHash);
    } catch {
      return false;
    }
  };
  refreshTokenKey = (): void => void (this.tokenKey = newTokenKey());
  toJSON = (): Data => ({ id: this.id, created: this.created, updated: this.updated, avatar: this.avatar, email: this.email });
}

/** `unmarshal(data, target)`: fills a model (or a plain object) from JSON-like data. */
export function unmarshal(data: unknown, target: unknown): unknown {
  const d = typeof data === 'string' ? JSON.parse(data) : viaJson(data);
  if (target instanceof Collection) target.load(d);
  else if (target instanceof JsRecord) target.load(d);
  else if (isObj(target) && isObj(d)) Object.assign(target, d);
  return target;
}
