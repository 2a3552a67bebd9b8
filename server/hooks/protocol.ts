// What the main thread and the hook executors (worker threads, ./executor.ts) send each other.
// Everything crosses as structured-clone data: models as plain snapshots (./models-wire.ts).

/** A registration a hook file made while it loaded (the manifest is the list of them). */
export type Registration =
  /** `source`: the handler's text (fn.toString()), for the main thread's inline runner (./inline-runner.ts). */
  | { kind: 'hook'; id: string; name: string; tags: string[]; source: string }
  | { kind: 'route'; id: string; method: string; path: string; middlewares: MiddlewareRef[]; static?: StaticRoute }
  | { kind: 'cron'; id: string; job: string; expr: string }
  /** routerUse: middlewares around every route (0.22's e.Router.Use). */
  | { kind: 'use'; id: string; middlewares: MiddlewareRef[] }
  /** `$app.rootCmd.addCommand(new Command({use, run}))`: `outpost <name> args` runs it. */
  | { kind: 'command'; id: string; name: string; use: string; short: string };

/** A route served from a folder by `$apis.staticDirectoryHandler(dir, indexFallback)`. */
export interface StaticRoute {
  dir: string;
  indexFallback: boolean;
}

/** The header of the empty response a staticDirectoryHandler writes when a handler calls it: the main thread serves the file instead. */
export const STATIC_RESPONSE_HEADER = 'x-outpost-static-directory';

/** A route middleware: one of $apis' (run on the main thread) or a JS function (run in the executor). */
export type MiddlewareRef = { builtin: string; args: unknown[] } | { js: number };

/** Where a registration came from (Settings › Hooks, error messages). */
export interface Manifest {
  files: string[];
  registrations: Array<Registration & { file: string }>;
}

/** The request a route or request hook sees (`c` in 0.22: echo's Context). */
export interface RequestSnapshot {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string[]>;
  headers: Record<string, string>;
  /** A parsed JSON or urlencoded body, the text of any other, or null. */
  body: unknown;
  /** The socket's address (echo's RemoteAddr). */
  remoteIp: string;
  /** The client's address as the trusted proxy settings resolve it (../http/client-address.ts). */
  realIp: string;
  /** The signed-in account: an admin's public fields or an auth record snapshot. */
  admin: Record<string, unknown> | null;
  authRecord: RecordWire | null;
}

/**
 * A RequestSnapshot as it crosses to an executor: its JSON, taken once per request. A string is
 * copied whole; the snapshot as an object (every header, the query, the body) was cloned key by
 * key for each call, before and after hooks alike.
 */
export type RequestWire = string;

/** A response a handler wrote (c.json, c.string, c.html, c.noContent, c.redirect, c.blob). */
export interface ResponseSnapshot {
  status: number;
  headers: Record<string, string>;
  /** JSON to serialise, or text/bytes sent as they are. */
  body: { json: unknown } | { text: string } | { bytes: Uint8Array } | null;
}

/**
 * A collection named by its id and version instead of sent whole: main → executor events name the
 * collection of their record (sent with every call, its JSON was most of a call's bytes), and the
 * executor keeps each version it has seen (./models-wire.ts), asking the main thread once for a new one.
 */
export interface CollectionRef {
  __collectionRef: string;
  /** Another for every change (the store builds new objects then; `updated` has only ms precision). */
  version: string;
}

export interface RecordWire {
  /** The collection's JSON; null when `collectionRef` names it instead. */
  collection: Record<string, unknown> | null;
  collectionRef?: CollectionRef;
  data: Record<string, unknown>;
  isNew: boolean;
  expand?: Record<string, unknown>;
}

/** An error a handler threw, as main maps it to 0.22's responses (./errors.ts). */
export interface ErrorWire {
  message: string;
  stack?: string;
  /** Set for ApiError and its subclasses: the status, message and data 0.22 keeps. */
  api?: { status: number; message: string; data: unknown };
}

export interface HookEventWire {
  /** The event's plain fields (collection, uploadedFiles names, ...). */
  fields?: Record<string, unknown>;
  record?: RecordWire;
  records?: RecordWire[];
  request?: RequestWire;
}

export type Invocation =
  | { kind: 'hook'; name: string; tags: string[]; event: HookEventWire }
  | { kind: 'route'; id: string; request: RequestWire }
  /** routerUse's JS middlewares ahead of a built-in route: did they let it run? */
  | { kind: 'use'; request: RequestWire }
  | { kind: 'cron'; id: string }
  /** A custom command's run(cmd, args). */
  | { kind: 'command'; id: string; args: string[] };

export interface InvocationResult {
  /** 'stop': a handler returned false (0.22's StopPropagation: no later handler, no default action). */
  outcome: 'continue' | 'stop' | 'error';
  error?: ErrorWire;
  /** The event after the handlers (their changes to e.record and friends). */
  event?: HookEventWire;
  response?: ResponseSnapshot | null;
  /** For 'use': whether the middlewares called next() (the route then runs). */
  proceed?: boolean;
}

/** main → executor */
export type ToExecutor =
  /** `sources`: each file's text as the generation read it (an executor started later runs the same code). */
  | { type: 'load'; files: string[]; sources: string[]; hooksDir: string; cwd: string; dataDir: string; dev: boolean }
  | { type: 'invoke'; id: number; invocation: Invocation };

/** executor → main */
export type FromExecutor =
  | { type: 'loaded'; manifest: Manifest }
  | { type: 'loadFailed'; error: ErrorWire }
  | { type: 'result'; id: number; result: InvocationResult }
  | { type: 'log'; level: 'log' | 'warn' | 'error'; text: string };
