// The fixed part of pb_data/types.d.ts (./types-file.ts): the declarations of the globals,
// namespaces, models and route context Outpost implements, as TypeScript text. The hook functions
// and their events are generated from ./hook-names.ts; a contract test
// (tests/server/hooks-types-file.test.ts) keeps this text in step with what runs.
export const STATIC_DECLARATIONS = `
// -------------------------------------------------------------------
// registration (pb_hooks files, while they load)
// -------------------------------------------------------------------

/** Registers a cron job (0.22's 5-field syntax or a macro such as "@daily", UTC); the same id replaces it. */
declare function cronAdd(jobId: string, cronExpr: string, handler: () => void): void;

/** Removes a cron job registered earlier while the files load. */
declare function cronRemove(jobId: string): void;

/** Adds a route ("*" for any method; ":name" and "*" path segments, read with c.pathParam). */
declare function routerAdd(method: string, path: string, handler: echo.HandlerFunc, ...middlewares: Array<echo.MiddlewareFunc>): void;

/** Adds middlewares around every route: the hook files' own, and ahead of the built-in ones (which run when they call next). */
declare function routerUse(...middlewares: Array<echo.MiddlewareFunc>): void;

/** @deprecated Not supported by Outpost yet: calling it throws. */
declare function routerPre(...middlewares: Array<echo.MiddlewareFunc>): void;

/** Registers the migration's up and down functions (pb_migrations files only). */
declare function migrate(up: (db: dbx.Builder) => void, down?: (db: dbx.Builder) => void): void;

// -------------------------------------------------------------------
// globals
// -------------------------------------------------------------------

/** The absolute path of the pb_hooks folder (\`require(\\\`\${__hooks}/utils.js\\\`)\`). */
declare var __hooks: string;

/** The running app (pb_hooks; in migrations: dao, db, dataDir and settings). */
declare var $app: core.App;

/** Blocks this executor (never the server) for at least \`milliseconds\`. */
declare function sleep(milliseconds: number): void;

/** The text of a request body or another reader (Outpost's bodies are strings already). */
declare function readerToString(reader: any, maxBytes?: number): string;

/** A list that db queries fill with copies of \`model\` (\`query.all(arrayOf(new DynamicModel({...})))\`). */
declare function arrayOf<T>(model: T): Array<T>;

/** Fills \`model\` from JSON data (a string or an object); returns the model. */
declare function unmarshal<T>(data: any, model: T): T;

/** A model with the fields of \`shape\`, which db queries fill. */
declare class DynamicModel {
  constructor(shape?: { [key: string]: any });
  [key: string]: any;
}

/** \`new Record(collection, data)\` (a const, as in 0.22: TypeScript's own Record type keeps its name). */
declare const Record: {
  new (collection?: models.Collection | null, data?: { [key: string]: any }): models.Record;
};

interface Collection extends models.Collection {}
declare class Collection implements models.Collection {
  constructor(data?: { [key: string]: any });
}

interface Admin extends models.Admin {}
declare class Admin implements models.Admin {
  constructor(data?: { [key: string]: any });
}

interface Schema extends schema.Schema {}
declare class Schema implements schema.Schema {
  constructor(fields?: Array<schema.SchemaField | { [key: string]: any }>);
}

interface SchemaField extends schema.SchemaField {}
declare class SchemaField implements schema.SchemaField {
  constructor(data?: { [key: string]: any });
}

/** The Dao: \`new Dao(db)\` or \`Dao(db)\` in migrations, \`$app.dao()\` in hooks. */
interface Dao extends daos.Dao {}
declare const Dao: {
  new (db?: dbx.Builder, nonconcurrentDB?: dbx.Builder): daos.Dao;
  (db?: dbx.Builder, nonconcurrentDB?: dbx.Builder): daos.Dao;
};

/** 0.22's API error: thrown (or returned) by a handler it becomes the response. */
declare class ApiError extends Error {
  constructor(status?: number, message?: string, data?: any);
  code: number;
  data: any;
  error(): string;
}
/** 400, "Something went wrong while processing your request." unless a message is given. */
declare class BadRequestError extends ApiError {
  constructor(message?: string, data?: any);
}
/** 404, "The requested resource wasn't found." unless a message is given. */
declare class NotFoundError extends ApiError {
  constructor(message?: string, data?: any);
}
/** 403, "You are not allowed to perform this request." unless a message is given. */
declare class ForbiddenError extends ApiError {
  constructor(message?: string, data?: any);
}
/** 401, "Missing or invalid authentication token." unless a message is given. */
declare class UnauthorizedError extends ApiError {
  constructor(message?: string, data?: any);
}
/** A field error inside an ApiError's data: \`{ title: new ValidationError("invalid_title", "Bad title") }\`. */
declare class ValidationError extends Error {
  constructor(code?: string, message?: string);
  code(): string;
  error(): string;
  toJSON(): { code: string; message: string };
}

/** A mail for \`$app.newMailClient().send(message)\`. */
interface MailerMessage extends mailer.Message {}
declare class MailerMessage implements mailer.Message {
  constructor(data?: Partial<mailer.Message>);
}

/** A date and time (UTC) as PocketBase stores it: \`new DateTime("2024-01-02 03:04:05.000Z")\`; none: now. */
interface DateTime extends types.DateTime {}
declare class DateTime implements types.DateTime {
  constructor(date?: string);
}

/** An HTTP cookie (\`$http.send(...).cookies\` holds them). */
interface Cookie extends http.Cookie {}
declare class Cookie implements http.Cookie {
  constructor(options?: Partial<http.Cookie>);
}

/** A CLI command for \`$app.rootCmd.addCommand\`: \`outpost <use> args...\` runs \`run(cmd, args)\` (the data of --dir, no time limit). */
declare class Command {
  constructor(options?: { use?: string; short?: string; long?: string; run?: (cmd: Command, args: Array<string>) => void; [key: string]: any });
  use: string;
  short: string;
  long: string;
  run: ((cmd: Command, args: Array<string>) => any) | null;
}

/** 0.22's record form: the API's validation and save (model hooks, files, realtime; no request hooks or rules). */
declare class RecordUpsertForm {
  constructor(app: core.App, record: models.Record);
  /** Lets the form set what only managers may (email, verified, a password without the old one). */
  setFullManageAccess(fullManageAccess: boolean): void;
  setDao(dao: daos.Dao): void;
  loadData(data: { [key: string]: any }): void;
  /** The JSON body of the request (\`keyPrefix\`: the body's key holding the data). */
  loadRequest(request: echo.Request, keyPrefix?: string): void;
  /** Files for a file field (\`$filesystem\`): a single-file field's replace its file, a multiple one's are added. */
  addFiles(key: string, ...files: filesystem.File[]): void;
  /** Removes the named files of a field (none named: all of them). */
  removeFiles(key: string, ...names: string[]): void;
  /** Throws the form's errors ("name: cannot be blank."); uncaught, a 400 with them as data. */
  validate(): void;
  /** Validates and saves; the record gets its id, dates and stored values. Not inside runInTransaction. */
  submit(): void;
}
/** 0.22's password sign-in form: \`submit()\` gives the auth record, or throws "Invalid login credentials.". */
declare class RecordPasswordLoginForm {
  constructor(app: core.App, collection: models.Collection | string);
  identity: string;
  password: string;
  setDao(dao: daos.Dao): void;
  submit(): models.Record;
}
/** 0.22's admin form: set its fields, then \`submit()\` validates and saves as the admins API does (a password renews the tokenKey). */
declare class AdminUpsertForm {
  constructor(app: core.App, admin: models.Admin);
  id: string;
  avatar: number;
  email: string;
  password: string;
  passwordConfirm: string;
  setDao(dao: daos.Dao): void;
  submit(): void;
}
/** 0.22's settings form: its sections (meta, smtp, s3, ...) start as the settings are; \`submit()\` validates and saves as the settings API does. */
declare class SettingsUpsertForm {
  constructor(app: core.App);
  [section: string]: any;
  setDao(dao: daos.Dao): void;
  submit(): void;
}
/** 0.22's collection form: set its fields, then \`submit()\` validates and saves as the collections API does. */
declare class CollectionUpsertForm {
  constructor(app: core.App, collection: models.Collection);
  id: string;
  type: string;
  name: string;
  system: boolean;
  schema: any;
  indexes: any;
  listRule: string | null;
  viewRule: string | null;
  createRule: string | null;
  updateRule: string | null;
  deleteRule: string | null;
  options: any;
  setDao(dao: daos.Dao): void;
  submit(): void;
}

/** @deprecated Not supported by Outpost yet: calling it throws. */
declare function RequestInfo(...args: any[]): never;
/** @deprecated Not supported by Outpost yet: calling it throws. */
declare function SubscriptionMessage(...args: any[]): never;

/** Node's console (util.format; log, info and debug to stdout, warn and error to stderr). Merges with @types/node's or the DOM's. */
interface Console {
  log(...data: any[]): void;
  info(...data: any[]): void;
  debug(...data: any[]): void;
  warn(...data: any[]): void;
  error(...data: any[]): void;
}
declare var console: Console;

// -------------------------------------------------------------------
// namespaces
// -------------------------------------------------------------------

/** Route middlewares, with 0.22's answers (401/403/400). */
declare namespace $apis {
  export function requireRecordAuth(...optCollectionNames: string[]): echo.MiddlewareFunc;
  export function requireAdminAuth(): echo.MiddlewareFunc;
  export function requireAdminAuthOnlyIfAny(): echo.MiddlewareFunc;
  export function requireAdminOrRecordAuth(...optCollectionNames: string[]): echo.MiddlewareFunc;
  export function requireAdminOrOwnerAuth(ownerIdParam?: string): echo.MiddlewareFunc;
  export function requireGuestOnly(): echo.MiddlewareFunc;
  /** Outpost logs every request already: accepted and does nothing. */
  export function activityLogger(): echo.MiddlewareFunc;
  /** Outpost compresses every answer already: accepted and does nothing. */
  export function gzip(): echo.MiddlewareFunc;
  /** Outpost's body limit applies to every route: accepted and does nothing. */
  export function bodyLimit(limit?: number): echo.MiddlewareFunc;
  /** The request as 0.22's RequestInfo: query, data (the parsed body), headers (lower_snake names), method, the signed-in account. */
  export function requestInfo(c: echo.Context): models.RequestInfo;
  /** A route's handler serving the folder \`dir\` as pb_public is served (the file the route's \`*\` names; index.html for a folder; with indexFallback, the root index.html for a missing file; nothing outside the folder). */
  export function staticDirectoryHandler(dir: string, indexFallback: boolean): echo.HandlerFunc;
  /** Answers \`{token, record, meta?}\` as a sign-in does (onRecordAuthRequest runs; \`?expand=\` as the record sees it). */
  export function recordAuthResponse(app: core.App, c: echo.Context, record: models.Record, meta?: any, ...finalizers: Array<(token: string) => any>): any;
  /** Expands the records (\`defaultExpands\` and \`?expand=\`) as the request's caller may see them: \`record.expandedOne(name)\`. */
  export function enrichRecord(c: echo.Context, dao: daos.Dao, record: models.Record, ...defaultExpands: string[]): void;
  export function enrichRecords(c: echo.Context, dao: daos.Dao, records: Array<models.Record>, ...defaultExpands: string[]): void;
}

/** 0.22's tokens, signed as the API signs them (the token kind's secret in the settings plus the model's tokenKey). */
declare namespace $tokens {
  export function adminAuthToken(app: core.App, admin: models.Admin): string;
  export function adminResetPasswordToken(app: core.App, admin: models.Admin): string;
  export function adminFileToken(app: core.App, admin: models.Admin): string;
  export function recordAuthToken(app: core.App, record: models.Record): string;
  export function recordVerifyToken(app: core.App, record: models.Record): string;
  export function recordResetPasswordToken(app: core.App, record: models.Record): string;
  export function recordChangeEmailToken(app: core.App, record: models.Record, newEmail: string): string;
  export function recordFileToken(app: core.App, record: models.Record): string;
}

/** Files for a record's file field (\`record.set(field, file)\` then saveRecord, or a form's addFiles): named as an API upload is. */
declare namespace $filesystem {
  export function fileFromPath(path: string): filesystem.File;
  export function fileFromBytes(bytes: Array<number> | Uint8Array | string, name: string): filesystem.File;
  /** A multipart file header ({filename, bytes}); Outpost's \`c\` has no formFile() yet. */
  export function fileFromMultipart(header: { filename: string; bytes: Array<number> | Uint8Array | string }): filesystem.File;
  /** Downloads the URL (this executor waits; \`secTimeout\` 120 by default). */
  export function fileFromUrl(url: string, secTimeout?: number): filesystem.File;
}

declare namespace filesystem {
  interface File {
    /** The stored name: snake-cased, a random suffix, the extension kept. */
    readonly name: string;
    readonly originalName: string;
    readonly size: number;
    /** \`readerToString(file.reader.open())\` gives the content as text. */
    readonly reader: { open(): any };
  }
}

/** 0.22's account mails, sent as the API sends them (mailer hooks included); each returns once sent, and throws on a failure or inside runInTransaction. */
declare namespace $mails {
  export function sendRecordVerification(app: core.App, record: models.Record): void;
  export function sendRecordPasswordReset(app: core.App, record: models.Record): void;
  /** The confirmation goes to \`newEmail\`. */
  export function sendRecordChangeEmail(app: core.App, record: models.Record, newEmail: string): void;
  export function sendAdminPasswordReset(app: core.App, admin: models.Admin): void;
}

/** Go html/template text (0.22's template registry): parsed once per set of files or text, rendered with a handler's data, each value escaped for where it lands. */
declare namespace $template {
  /** The files parsed in order, each a template named by its base name; the first one runs. */
  export function loadFiles(...filenames: string[]): template.Renderer;
  export function loadString(text: string): template.Renderer;
  /** Functions for the templates loaded after it (beside Go's built-ins and \`raw\`). */
  export function addFuncs(funcs: { [name: string]: (...args: any[]) => any }): typeof $template;
}

declare namespace template {
  interface Renderer {
    /** The output; a parse or execution error is thrown with Go's message. */
    render(data?: any): string;
  }
}

declare namespace $security {
  export function randomString(length: number): string;
  export function randomStringWithAlphabet(length: number, alphabet: string): string;
  export function pseudorandomString(length: number): string;
  export function pseudorandomStringWithAlphabet(length: number, alphabet: string): string;
  /** Hex digests. */
  export function md5(text: string): string;
  export function sha256(text: string): string;
  export function sha512(text: string): string;
  /** Hex HMACs. */
  export function hs256(text: string, secret: string): string;
  export function hs512(text: string, secret: string): string;
  /** Constant-time comparison. */
  export function equal(hash1: string, hash2: string): boolean;
  /** An HS256 token with \`payload\`'s claims, expiring in \`secDuration\` seconds. */
  export function createJWT(payload: { [key: string]: any }, signingKey: string, secDuration: number): string;
  /** The claims of an HS256 token signed with \`verificationKey\` (exp, iat and nbf checked); throws otherwise. */
  export function parseJWT(token: string, verificationKey: string): { [key: string]: any };
  /** The claims, unchecked. */
  export function parseUnverifiedJWT(token: string): { [key: string]: any };
  /** AES-256-GCM with a 32 characters key; base64. */
  export function encrypt(data: string, key: string): string;
  export function decrypt(cipherText: string, key: string): string;
}

declare namespace $os {
  export let args: Array<string>;
  /** A command (Go's exec.Cmd) to run once: \`$os.cmd("ls", "-la").output()\`. */
  export function cmd(name: string, ...args: string[]): os.Cmd;
  export function exec(name: string, ...args: string[]): os.Cmd;
  /** Refused: a hook must not stop the server (it throws). */
  export function exit(code?: number): never;
  export function getenv(key: string): string;
  export function getwd(): string;
  /** The file's bytes. */
  export function readFile(name: string): Array<number>;
  export function writeFile(name: string, data: string | Array<number> | Uint8Array, perm?: number): void;
  export function readDir(name: string): Array<os.DirEntry>;
  export function tempDir(): string;
  export function truncate(name: string, size: number): void;
  export function mkdir(name: string, perm?: number): void;
  export function mkdirAll(path: string, perm?: number): void;
  export function rename(oldpath: string, newpath: string): void;
  export function remove(name: string): void;
  export function removeAll(path: string): void;
}

declare namespace $filepath {
  export function base(path: string): string;
  export function dir(path: string): string;
  export function ext(path: string): string;
  export function join(...elem: string[]): string;
  export function clean(path: string): string;
  export function isAbs(path: string): boolean;
  /** [dir, file] */
  export function split(path: string): Array<string>;
  export function splitList(path: string): Array<string>;
  export function fromSlash(path: string): string;
  export function toSlash(path: string): string;
  export function glob(pattern: string): Array<string>;
  export function match(pattern: string, name: string): boolean;
  export function rel(basepath: string, targpath: string): string;
  /** Calls \`fn\` for every file and folder under root, in lexical order; a returned error stops the walk. */
  export function walk(root: string, fn: (path: string, info: os.FileInfo, err: any) => any): void;
  export function walkDir(root: string, fn: (path: string, d: os.DirEntry, err: any) => any): void;
}

/** Expressions for \`$app.dao().findRecordsByExpr(collection, ...exprs)\`. */
declare namespace $dbx {
  /** SQL with {:name} parameters. */
  export function exp(expression: string, params?: { [key: string]: any }): dbx.Expression;
  /** column = value for each pair (an array value: IN, null: IS NULL). */
  export function hashExp(pairs: { [key: string]: any }): dbx.Expression;
  export function not(e: dbx.Expression): dbx.Expression;
  export function and(...exps: dbx.Expression[]): dbx.Expression;
  export function or(...exps: dbx.Expression[]): dbx.Expression;
  let _in: (col: string, ...values: any[]) => dbx.Expression;
  export { _in as in };
  export function notIn(col: string, ...values: any[]): dbx.Expression;
  export function like(col: string, ...values: string[]): dbx.LikeExp;
  export function notLike(col: string, ...values: string[]): dbx.LikeExp;
  export function orLike(col: string, ...values: string[]): dbx.LikeExp;
  export function orNotLike(col: string, ...values: string[]): dbx.LikeExp;
  export function exists(e: dbx.Expression): dbx.Expression;
  export function notExists(e: dbx.Expression): dbx.Expression;
  export function between(col: string, from: any, to: any): dbx.Expression;
  export function notBetween(col: string, from: any, to: any): dbx.Expression;
}

declare namespace $http {
  /**
   * Sends a request and waits for the answer (this executor only; a 4xx/5xx answer is no error,
   * a network failure or the timeout, 120 s by default, throws).
   */
  export function send(config: {
    url: string;
    method?: string;
    /** A string, or a FormData (sent as multipart; declared by @types/node or the DOM library). */
    body?: any;
    headers?: { [key: string]: string };
    /** Seconds. */
    timeout?: number;
    /** @deprecated 0.22's older way: JSON-encoded as the body. */
    data?: { [key: string]: any };
  }): http.Response;
}


// -------------------------------------------------------------------
// types
// -------------------------------------------------------------------

declare namespace core {
  interface App {
    dao(): daos.Dao;
    db(): dbx.Builder;
    /** One store for every executor of this generation of hooks (emptied by a reload, as 0.22's restart does). */
    store(): core.Store;
    cache(): core.Store;
    /** A copy of the settings. */
    settings(): { [key: string]: any };
    dataDir(): string;
    isDev(): boolean;
    isDebug(): boolean;
    isBootstrapped(): boolean;
    encryptionEnv(): string;
    /** Lines for the Logs page (slog's levels: debug -4, info 0, warn 4, error 8). */
    logger(): Logger;
    /** Sends with the SMTP settings (waits for the server's answer; this executor only). */
    newMailClient(): mailer.Mailer;
    /** Custom commands: \`outpost <use> args...\` runs one (added while the hook files load). */
    rootCmd: { addCommand(...cmds: Command[]): void };
  }
  interface Logger {
    debug(message: string, ...keyValues: any[]): void;
    info(message: string, ...keyValues: any[]): void;
    warn(message: string, ...keyValues: any[]): void;
    error(message: string, ...keyValues: any[]): void;
    with(...keyValues: any[]): Logger;
    withGroup(name: string): Logger;
  }
  interface Store {
    get(key: string): any;
    set(key: string, value: any): void;
    has(key: string): boolean;
    remove(key: string): void;
    removeAll(): void;
    reset(): void;
    getAll(): { [key: string]: any };
    length(): number;
    setIfLessThanLimit(key: string, value: any, limit: number): boolean;
  }
  interface BaseEvent {
    app: App;
  }
}

declare namespace models {
  interface Model {
    getId(): string;
    isNew(): boolean;
    markAsNew(): void;
    markAsNotNew(): void;
  }
  interface Record extends Model {
    readonly id: string;
    readonly created: string;
    readonly updated: string;
    collection(): models.Collection | null;
    get(key: string): any;
    set(key: string, value: any): void;
    load(data: { [key: string]: any }): void;
    setId(id: string): void;
    getString(key: string): string;
    getInt(key: string): number;
    getFloat(key: string): number;
    getBool(key: string): boolean;
    getStringSlice(key: string): Array<string>;
    getDateTime(key: string): string;
    username(): string;
    setUsername(username: string): void;
    email(): string;
    setEmail(email: string): void;
    verified(): boolean;
    setVerified(verified: boolean): void;
    emailVisibility(): boolean;
    setEmailVisibility(visible: boolean): void;
    tokenKey(): string;
    setTokenKey(key: string): void;
    refreshTokenKey(): void;
    passwordHash(): string;
    setPassword(password: string): void;
    validatePassword(password: string): boolean;
    /** Every stored value (auth keys included). */
    data(): { [key: string]: any };
    /** The relations \`$apis.enrichRecord\` expanded: field name → record(s). */
    expand(): { [key: string]: models.Record | Array<models.Record> };
    setExpand(expand: { [key: string]: models.Record | Array<models.Record> }): void;
    mergeExpand(expand: { [key: string]: models.Record | Array<models.Record> }): void;
    expandedOne(relField: string): models.Record | null;
    expandedAll(relField: string): Array<models.Record>;
    /** The record as the API answers it. */
    publicExport(): { [key: string]: any };
    toJSON(): { [key: string]: any };
  }
  interface Collection extends Model {
    id: string;
    created: string;
    updated: string;
    name: string;
    type: string;
    system: boolean;
    schema: schema.Schema;
    indexes: Array<string>;
    listRule: string | null;
    viewRule: string | null;
    createRule: string | null;
    updateRule: string | null;
    deleteRule: string | null;
    options: { [key: string]: any };
    load(data: { [key: string]: any }): void;
    toJSON(): { [key: string]: any };
    setId(id: string): void;
    hasId(): boolean;
    isAuth(): boolean;
    isBase(): boolean;
    isView(): boolean;
    tableName(): string;
    baseFilesPath(): string;
    authOptions(): { [key: string]: any };
    baseOptions(): { [key: string]: any };
    viewOptions(): { [key: string]: any };
  }
  /** \`$apis.requestInfo(c)\` */
  interface RequestInfo {
    context: string;
    query: { [key: string]: string };
    data: { [key: string]: any };
    headers: { [key: string]: string };
    method: string;
    authRecord: models.Record | null;
    admin: models.Admin | null;
  }
  interface Admin extends Model {
    id: string;
    created: string;
    updated: string;
    avatar: number;
    email: string;
    tokenKey: string;
    passwordHash: string;
    lastResetSentAt: string;
    setPassword(password: string): void;
    validatePassword(password: string): boolean;
    refreshTokenKey(): void;
    toJSON(): { [key: string]: any };
  }
}

declare namespace schema {
  interface Schema {
    fields(): Array<SchemaField>;
    getFieldById(id: string): SchemaField | null;
    getFieldByName(name: string): SchemaField | null;
    removeField(id: string): void;
    /** Replaces the field of the same id, or appends it. */
    addField(field: SchemaField | { [key: string]: any }): void;
    asMap(): { [name: string]: SchemaField };
    clone(): Schema;
    initFieldsOptions(): void;
    toJSON(): Array<SchemaField>;
  }
  interface SchemaField {
    system: boolean;
    id: string;
    name: string;
    type: string;
    required: boolean;
    presentable: boolean;
    unique: boolean;
    options: { [key: string]: any };
  }
}

declare namespace dbx {
  interface Builder {
    /** SQL with {:name} parameters, {{table}} and [[column]] quoting. */
    newQuery(sql: string): Query;
    /** dbx's query builder: \`select("id", "name").from("items").where($dbx.exp("qty > {:n}", { n: 1 })).orderBy("name").all(list)\`. */
    select(...cols: string[]): SelectQuery;
  }
  /** dbx's SelectQuery (SQLite): clauses, then one(model), all(list) or column(list) runs it. */
  interface SelectQuery {
    select(...cols: string[]): SelectQuery;
    andSelect(...cols: string[]): SelectQuery;
    distinct(distinct: boolean): SelectQuery;
    selectOption(option: string): SelectQuery;
    from(...tables: string[]): SelectQuery;
    where(e: Expression | string): SelectQuery;
    andWhere(e: Expression | string): SelectQuery;
    orWhere(e: Expression | string): SelectQuery;
    join(type: string, table: string, on?: Expression | string): SelectQuery;
    innerJoin(table: string, on?: Expression | string): SelectQuery;
    leftJoin(table: string, on?: Expression | string): SelectQuery;
    rightJoin(table: string, on?: Expression | string): SelectQuery;
    orderBy(...cols: string[]): SelectQuery;
    andOrderBy(...cols: string[]): SelectQuery;
    groupBy(...cols: string[]): SelectQuery;
    andGroupBy(...cols: string[]): SelectQuery;
    having(e: Expression | string): SelectQuery;
    andHaving(e: Expression | string): SelectQuery;
    orHaving(e: Expression | string): SelectQuery;
    limit(limit: number): SelectQuery;
    offset(offset: number): SelectQuery;
    bind(params: { [key: string]: any }): SelectQuery;
    andBind(params: { [key: string]: any }): SelectQuery;
    /** The SQL (dbx's, with {:pN} placeholders) and the values it binds. */
    build(): { sql: string; params: { [key: string]: any } };
    one(model: any): void;
    all(models: Array<any>): void;
    /** The first column of every row. */
    column(values: Array<any>): void;
  }
  interface Query {
    bind(params: { [key: string]: any }): Query;
    execute(): Result;
    one(model: any): void;
    all(models: Array<any>): void;
  }
  interface Result {
    rowsAffected(): number;
    lastInsertId(): number;
  }
  interface Expression {
    build(db?: any, params?: { [key: string]: any }): string;
  }
  interface LikeExp extends Expression {
    /** Whether the value may match anywhere (default), at the start or at the end. */
    match(left: boolean, right: boolean): LikeExp;
    escape(...chars: string[]): LikeExp;
  }
}

declare namespace daos {
  type CollectionRef = string | models.Collection;
  interface Dao {
    db(): dbx.Builder;
    concurrentDB(): dbx.Builder;
    nonconcurrentDB(): dbx.Builder;
    withoutHooks(): Dao;
    clone(): Dao;
    /** Holds the write lock while \`fn\` runs: a throw rolls back, a return commits. */
    runInTransaction(fn: (txDao: Dao) => void): void;
    findCollectionByNameOrId(nameOrId: string): models.Collection;
    findCollectionsByType(collectionType: string): Array<models.Collection>;
    isCollectionNameUnique(name: string, ...excludeIds: string[]): boolean;
    saveCollection(collection: models.Collection): void;
    deleteCollection(collection: models.Collection): void;
    importCollections(collections: Array<models.Collection | { [key: string]: any }>, deleteMissing: boolean, afterSync?: any): void;
    findRecordById(collectionNameOrId: CollectionRef, recordId: string): models.Record;
    findRecordsByIds(collectionNameOrId: CollectionRef, recordIds: Array<string>): Array<models.Record>;
    findFirstRecordByData(collectionNameOrId: CollectionRef, key: string, value: any): models.Record;
    /** The server's filter language, with {:name} parameters. */
    findRecordsByFilter(collectionNameOrId: CollectionRef, filter: string, sort?: string, limit?: number, offset?: number, params?: { [key: string]: any }): Array<models.Record>;
    /** The records matching every expression ($dbx). */
    findRecordsByExpr(collectionNameOrId: CollectionRef, ...exprs: dbx.Expression[]): Array<models.Record>;
    findFirstRecordByFilter(collectionNameOrId: CollectionRef, filter: string, params?: { [key: string]: any }): models.Record;
    findAuthRecordByEmail(collectionNameOrId: CollectionRef, email: string): models.Record;
    findAuthRecordByUsername(collectionNameOrId: CollectionRef, username: string): models.Record;
    isRecordValueUnique(collectionNameOrId: CollectionRef, key: string, value: any, ...excludeIds: string[]): boolean;
    suggestUniqueAuthRecordUsername(collectionNameOrId: CollectionRef, baseUsername: string, ...excludeIds: string[]): string;
    /** dbx's query of a collection's records (SELECT name.* FROM name): one(new Record()) / all(arrayOf(new Record)) give Records. */
    recordQuery(collectionNameOrId: CollectionRef): dbx.SelectQuery;
    /** A file field holding \`$filesystem\` files stores them as an API upload (inside runInTransaction: at its commit). */
    saveRecord(record: models.Record): void;
    deleteRecord(record: models.Record): void;
    findSettings(): { [key: string]: any };
    saveSettings(settings: { [key: string]: any }): void;
    findAdminByEmail(email: string): models.Admin;
    findAdminById(id: string): models.Admin;
    isAdminEmailUnique(email: string, ...excludeIds: string[]): boolean;
    totalAdmins(): number;
    saveAdmin(admin: models.Admin): void;
    deleteAdmin(admin: models.Admin): void;
    hasTable(tableName: string): boolean;
    tableColumns(tableName: string): Array<string>;
    tableInfo(tableName: string): Array<{ [key: string]: any }>;
    tableIndexes(tableName: string): { [name: string]: string };
    deleteTable(tableName: string): void;
    deleteView(name: string): void;
    saveView(name: string, selectQuery: string): void;
    vacuum(): void;
    /** Saves a Collection, Record or Admin. */
    save(model: models.Model): void;
    delete(model: models.Model): void;
  }
}

declare namespace echo {
  interface HandlerFunc {
    (c: Context): any;
  }
  interface MiddlewareFunc {
    (next: HandlerFunc): HandlerFunc;
  }
  interface Request {
    method: string;
    url: { path: string; rawQuery: string; query(): { get(name: string): string; has(name: string): boolean }; string(): string };
    header: { get(name: string): string; values(name: string): Array<string> };
    host: string;
    remoteAddr: string;
    /** The body as text (a JSON body serialized). */
    body: string;
  }
  interface Response {
    header(): { set(key: string, value: string): void; get(key: string): string; add(key: string, value: string): void; del(key: string): void };
    readonly committed: boolean;
    /** The status of a body written with write() (200 by default). */
    writeHeader(code: number): void;
    /** Appends to the body (a string or bytes); returns the count of bytes written. */
    write(data: string | Array<number> | Uint8Array): number;
  }
  /** \`c\`: the request, and the methods that write the response. */
  interface Context {
    request(): Request;
    response(): Response;
    path(): string;
    pathParam(name: string): string;
    pathParamDefault(name: string, defaultValue: string): string;
    pathParams(): { [name: string]: string };
    queryParam(name: string): string;
    queryParamDefault(name: string, defaultValue: string): string;
    queryParams(): { [name: string]: Array<string> };
    queryString(): string;
    formValue(name: string): string;
    realIP(): string;
    scheme(): string;
    /** "admin" (models.Admin), "authRecord" (models.Record), or what c.set stored. */
    get(key: string): any;
    set(key: string, value: any): void;
    /** Fills \`target\` from the JSON or form body. */
    bind(target: any): void;
    json(status: number, data: any): void;
    jsonPretty(status: number, data: any): void;
    string(status: number, text: string): void;
    html(status: number, html: string): void;
    blob(status: number, contentType: string, bytes: string | Array<number> | Uint8Array): void;
    noContent(status?: number): void;
    redirect(status: number, url: string): void;
  }
}

declare namespace mailer {
  interface Address {
    name: string;
    address: string;
  }
  interface Message {
    from: Address;
    to: Array<Address>;
    cc: Array<Address>;
    bcc: Array<Address>;
    subject: string;
    html: string;
    text: string;
    headers: { [key: string]: string };
    /** File name → content (text or bytes). */
    attachments?: { [name: string]: any } | null;
  }
  interface Mailer {
    send(message: Message): void;
  }
}

declare namespace types {
  interface DateTime {
    time(): os.Time;
    isZero(): boolean;
    unix(): number;
    /** "2006-01-02 15:04:05.000Z" */
    string(): string;
    toString(): string;
    toJSON(): string;
  }
}

declare namespace http {
  interface Cookie {
    name: string;
    value: string;
    path: string;
    domain: string;
    expires: any;
    rawExpires: string;
    maxAge: number;
    secure: boolean;
    httpOnly: boolean;
    /** 0 default, 1 default mode, 2 lax, 3 strict, 4 none */
    sameSite: number;
    raw: string;
    unparsed: Array<string> | null;
    string(): string;
    valid(): null;
    toString(): string;
  }
  interface Response {
    statusCode: number;
    /** Canonical names ("Content-Type") → values. */
    headers: { [name: string]: Array<string> };
    cookies: { [name: string]: Cookie };
    /** The body as text. */
    raw: string;
    /** The body parsed as JSON (null when it is not JSON). */
    json: any;
  }
}

declare namespace os {
  interface Cmd {
    path: string;
    args: Array<string>;
    /** ["KEY=value", ...]; null: the server's environment. */
    env: Array<string> | null;
    dir: string;
    /** Text or bytes fed to the command. */
    stdin: any;
    run(): void;
    /** Its stdout bytes. */
    output(): Array<number>;
    combinedOutput(): Array<number>;
    string(): string;
    /** @deprecated Not supported by Outpost (a command runs to its end): throws. */
    start(): never;
    /** @deprecated Not supported by Outpost (a command runs to its end): throws. */
    wait(): never;
  }
  interface FileInfo {
    name(): string;
    size(): number;
    mode(): number;
    modTime(): Time;
    isDir(): boolean;
    sys(): null;
  }
  interface DirEntry {
    name(): string;
    isDir(): boolean;
    type(): number;
    info(): FileInfo;
  }
  /** Go's time.Time. */
  interface Time {
    unix(): number;
    unixMilli(): number;
    unixMicro(): number;
    unixNano(): number;
    isZero(): boolean;
    year(): number;
    month(): number;
    day(): number;
    hour(): number;
    minute(): number;
    second(): number;
    nanosecond(): number;
    weekday(): number;
    yearDay(): number;
    utc(): Time;
    local(): Time;
    /** Nanoseconds. */
    add(duration: number): Time;
    sub(other: Time): number;
    before(other: Time): boolean;
    after(other: Time): boolean;
    equal(other: Time): boolean;
    string(): string;
    toString(): string;
    toJSON(): string;
  }
}

declare namespace subscriptions {
  interface Client {
    id(): string;
    subscriptions(): Array<string>;
    hasSubscription(name: string): boolean;
    get(key: string): any;
    set(key: string, value: any): void;
  }
}

declare namespace search {
  interface Result {
    page: number;
    perPage: number;
    totalItems: number;
    totalPages: number;
    items: any;
  }
}
`;
