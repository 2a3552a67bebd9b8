// pb_data/types.d.ts, as 0.22 writes it at every start (plugins/jsvm refreshTypesFile): the
// declarations of the JS API the hook files (*.pb.js, *.pb.ts) and the migration files see, for
// editors and `tsc`. The hook functions come from ./hook-names.ts (a hook Outpost does not fire yet
// is marked so); the rest is written here, and tests/server/hooks-types-file.test.ts fails when a
// global, a namespace member, a Dao, $app, model or route-context method exists at run time without
// a declaration here (or is declared without existing).
//
// The first line is `// <unix seconds>` as in 0.22's file; the file is rewritten only when what
// follows that line differs (0.22 compares the timestamp, which it bumps with every release).
// 0.22's other helper, prependToEmptyFile: an empty hook file gets the reference line.
import fs from 'node:fs';
import path from 'node:path';
import { FIRED, TAGGED_HOOKS, UNTAGGED_HOOKS } from './hook-names';
import { STATIC_DECLARATIONS } from './types-static';

export const TYPES_FILE = 'types.d.ts';

/** The event type 0.22 names for a hook: onRecordBeforeCreateRequest → RecordCreateEvent. */
export function eventTypeOf(hook: string): string {
  const name = hook.replace(/^on/, '');
  if (/^Model(Before|After)/.test(name)) return 'ModelEvent';
  const mailer = /^Mailer(Before|After)(Record|Admin)/.exec(name);
  if (mailer) return `Mailer${mailer[2]}Event`;
  if (/^Realtime(Before|After)MessageSend$/.test(name)) return 'RealtimeMessageEvent';
  return `${name.replace(/^(\w+?)(Before|After)(?=[A-Z])/, '$1').replace(/^(Before|After)(?=[A-Z])/, '').replace(/Request$/, '')}Event`;
}

/**
 * The fields of the events Outpost fires, as the handlers get them (server/hooks/executor.ts
 * eventOf: `app`, then what the trigger sends). A fired hook's event type must be described here
 * (the contract test says which is missing); the others are declared open (`[key: string]: any`).
 */
export const EVENT_FIELDS: Readonly<Record<string, string>> = {
  BootstrapEvent: '',
  TerminateEvent: '/** true before an in-process restart (a restore, a hooks reload) */\n    isRestart: boolean',
  ModelEvent:
    "/** The model written: a record (declared so, the usual case), or for the tags '_collections', '_admins', '_externalAuths' and '_params' a collection, an admin, an external auth link or the settings row */\n    model: models.Record\n    dao: daos.Dao\n    collection?: models.Collection",
  RecordsListEvent: 'collection: models.Collection\n    httpContext: echo.Context\n    records: Array<models.Record>\n    result: search.Result',
  RecordViewEvent: 'collection: models.Collection\n    httpContext: echo.Context\n    record: models.Record',
  RecordCreateEvent: 'collection: models.Collection\n    httpContext: echo.Context\n    record: models.Record',
  RecordUpdateEvent: 'collection: models.Collection\n    httpContext: echo.Context\n    record: models.Record',
  RecordDeleteEvent: 'collection: models.Collection\n    httpContext: echo.Context\n    record: models.Record',
  RecordAuthEvent: 'collection: models.Collection\n    httpContext: echo.Context\n    record: models.Record\n    token: string\n    meta: any',
  RecordAuthWithPasswordEvent:
    'collection: models.Collection\n    httpContext: echo.Context\n    /** null before the check when no account matches the identity */\n    record: models.Record | null\n    identity: string\n    password: string',
  RealtimeSubscribeEvent: 'httpContext: echo.Context\n    client: subscriptions.Client\n    /** What the client asks for; a before-handler may change it */\n    subscriptions: Array<string>',
  RealtimeDisconnectEvent: 'httpContext: echo.Context\n    client: subscriptions.Client',
  RealtimeConnectEvent:
    "httpContext: echo.Context\n    client: subscriptions.Client\n    /** How long the connection may go without a message, in nanoseconds (Go's time.Duration); a handler may change it */\n    idleTimeout: number",
  RealtimeMessageEvent: 'httpContext: echo.Context\n    client: subscriptions.Client\n    /** The message to send (data: its JSON text); a before-handler may change it */\n    message: { name: string; data: string }',
  ApiErrorEvent: 'httpContext: echo.Context\n    /** The error answered; a before-handler may change its code, message and data */\n    error: ApiError',
  FileTokenEvent:
    'httpContext: echo.Context\n    /** The signed-in admin or auth record (null for a guest); a before-handler may put one there */\n    model: models.Admin | models.Record | null\n    /** The token answered; a handler may change it */\n    token: string',
  FileDownloadEvent:
    'collection: models.Collection\n    httpContext: echo.Context\n    record: models.Record\n    fileField: schema.SchemaField\n    /** The storage key of the file served (collectionId/recordId/name); a handler may change it */\n    servedPath: string\n    /** The name it is served as; a handler may change it */\n    servedName: string',
  MailerRecordEvent:
    'collection: models.Collection\n    record: models.Record\n    /** The mail; a before-handler may change it (to, subject, html, text) */\n    message: mailer.Message\n    meta: { [key: string]: any }',
  ...recordAuthEventFields(),
  ...adminEventFields(),
  ...collectionEventFields(),
  SettingsListEvent: 'httpContext: echo.Context\n    /** The answer (secrets redacted); a handler may change it */\n    redactedSettings: { [key: string]: any }',
  SettingsUpdateEvent: 'httpContext: echo.Context\n    oldSettings: { [key: string]: any }\n    /** What is saved; a before-handler may change it */\n    newSettings: { [key: string]: any }',
};

/** The collections API's events (server/http/collection-hooks.ts). */
function collectionEventFields(): Record<string, string> {
  const one = 'httpContext: echo.Context\n    /** The collection; a before-handler may change what is saved */\n    collection: models.Collection';
  return {
    CollectionsListEvent: 'httpContext: echo.Context\n    collections: Array<models.Collection>\n    /** The answer; a handler may change it */\n    result: search.Result',
    CollectionViewEvent: 'httpContext: echo.Context\n    collection: models.Collection',
    CollectionCreateEvent: one,
    CollectionUpdateEvent: one,
    CollectionDeleteEvent: 'httpContext: echo.Context\n    collection: models.Collection',
    CollectionsImportEvent: 'httpContext: echo.Context\n    /** The collections imported; a before-handler may change them */\n    collections: Array<models.Collection>',
  };
}

/** The admins API's events (server/http/admins.ts): the admin, plus each one's own fields. */
function adminEventFields(): Record<string, string> {
  const base = 'httpContext: echo.Context\n    admin: models.Admin';
  const plain = ['AdminViewEvent', 'AdminCreateEvent', 'AdminUpdateEvent', 'AdminDeleteEvent', 'AdminAuthRefreshEvent', 'AdminRequestPasswordResetEvent', 'AdminConfirmPasswordResetEvent'];
  return {
    ...Object.fromEntries(plain.map((type) => [type, base])),
    AdminsListEvent: 'httpContext: echo.Context\n    admins: Array<models.Admin>\n    /** The answer; a handler may change it */\n    result: search.Result',
    AdminAuthEvent: `${base}\n    token: string`,
    AdminAuthWithPasswordEvent: 'httpContext: echo.Context\n    /** null before the check when no admin has the email */\n    admin: models.Admin | null\n    identity: string\n    password: string',
    MailerAdminEvent: 'admin: models.Admin\n    /** The mail; a before-handler may change it (to, subject, html, text) */\n    message: mailer.Message\n    meta: { [key: string]: any }',
  };
}

/** The record auth flows' events (server/http/record-auth): the record, plus each one's own fields. */
function recordAuthEventFields(): Record<string, string> {
  const base = 'collection: models.Collection\n    httpContext: echo.Context\n    record: models.Record';
  const link = '{ id: string; created: string; updated: string; collectionId: string; recordId: string; provider: string; providerId: string }';
  const user = '{ id: string; name: string; username: string; email: string; avatarUrl: string; accessToken: string; refreshToken: string; expiry: string; rawUser: { [key: string]: any } }';
  const client = '{ displayName(): string; pkce(): boolean; scopes(): Array<string>; clientId(): string; authUrl(): string; tokenUrl(): string; userApiUrl(): string }';
  const plain = ['RecordAuthRefreshEvent', 'RecordRequestPasswordResetEvent', 'RecordConfirmPasswordResetEvent', 'RecordRequestVerificationEvent', 'RecordConfirmVerificationEvent', 'RecordRequestEmailChangeEvent', 'RecordConfirmEmailChangeEvent'];
  return {
    ...Object.fromEntries(plain.map((type) => [type, base])),
    RecordAuthWithOAuth2Event: `collection: models.Collection\n    httpContext: echo.Context\n    providerName: string\n    providerClient: ${client}\n    /** null before the sign-in when a new record is to be created */\n    record: models.Record | null\n    /** The provider's user; a before-handler may change it */\n    oAuth2User: ${user}\n    isNewRecord: boolean`,
    RecordListExternalAuthsEvent: `${base}\n    /** The answer; a handler may change it */\n    externalAuths: Array<${link}>`,
    RecordUnlinkExternalAuthEvent: `${base}\n    externalAuth: ${link}`,
  };
}

const HEADER = `// GENERATED BY OUTPOST AT START: DO NOT MODIFY BY HAND (rewritten when it differs)
//
// The JS API Outpost offers to pb_hooks (*.pb.js, *.pb.ts) and pb_migrations files: PocketBase
// 0.22's, as far as Outpost implements it. A member 0.22 has and Outpost lacks is not declared
// here: calling it throws an error naming it. Hook files also get Node's require, module,
// process, Buffer, timers, fetch, ... (add @types/node for their declarations).
`;

/** The hook functions and their event types, from ./hook-names.ts. */
function hookDeclarations(): string {
  const hooks = [...UNTAGGED_HOOKS.map((name) => ({ name, tagged: false })), ...TAGGED_HOOKS.map((name) => ({ name, tagged: true }))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = ['', '// -------------------------------------------------------------------', '// hooks (pb_hooks files, while they load)', '// -------------------------------------------------------------------', ''];
  for (const { name, tagged } of hooks) {
    const doc = FIRED.has(name) ? '' : `/** @deprecated Outpost does not fire ${name} yet: its handlers never run. */ `;
    const tags = tagged ? ', ...tags: string[]' : '';
    lines.push(`${doc}declare function ${name}(handler: (e: core.${eventTypeOf(name)}) => any${tags}): void;`);
  }
  const events = [...new Set(hooks.map((h) => eventTypeOf(h.name)))].sort();
  lines.push('', 'declare namespace core {');
  for (const type of events) {
    const fields = EVENT_FIELDS[type];
    if (fields === undefined) lines.push(`  /** Not fired by Outpost yet. */`, `  interface ${type} extends BaseEvent {`, '    [key: string]: any', '  }');
    else lines.push(`  interface ${type} extends BaseEvent {${fields ? `\n    ${fields}\n  ` : ''}}`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

let body: string | null = null;

/** The file's content after its timestamp line. */
export function typesDeclarations(): string {
  body ??= HEADER + STATIC_DECLARATIONS + hookDeclarations();
  return body;
}

/**
 * Writes `<dataDir>/types.d.ts` when it is missing or says something else (its first line, a
 * timestamp, aside); true when it wrote. Errors are only reported, as in 0.22.
 */
export function refreshTypesFile(dataDir: string): boolean {
  const file = path.join(dataDir, TYPES_FILE);
  const content = typesDeclarations();
  try {
    const old = fs.readFileSync(file, 'utf8');
    if (old.slice(old.indexOf('\n') + 1) === content) return false;
  } catch {
    /* missing or unreadable: written */
  }
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `// ${Math.floor(Date.now() / 1000)}\n${content}`);
    fs.renameSync(tmp, file);
    return true;
  } catch (err) {
    console.warn(`Unable to refresh app types file: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}

/** The reference line 0.22 puts in an empty hook file (the types file's path from the hooks folder). */
export function typesReference(hooksDir: string, dataDir: string): string {
  const rel = path.relative(path.resolve(hooksDir), path.join(path.resolve(dataDir), TYPES_FILE)).split(path.sep).join('/');
  return `/// <reference path="${rel}" />\n\n`;
}

/** 0.22's prependToEmptyFile: each of `files` that is empty gets the reference line. */
export function prependTypesReference(files: readonly string[], hooksDir: string, dataDir: string): void {
  for (const file of files) {
    try {
      if (fs.statSync(file).size === 0) fs.writeFileSync(file, typesReference(hooksDir, dataDir));
    } catch (err) {
      console.warn(`Unable to prepend the types reference: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
