// What a migration may call is what Outpost implements; any other method of a 0.22 object (a Dao
// method, a db builder method, `$os.exec`, ...) throws an error naming it. As any error a 0.22
// method throws, it is the file's to catch: seed files probe with `try { dao.find...() } catch {}`.
// Uncaught, it fails the migration with that name in the message.
let runtime = "Outpost's JS migrations";

/** What the messages name: the migrations' runtime, or the hooks' (an executor sets it). */
export function setRuntimeName(name: string): void {
  runtime = name;
}

class UnsupportedCallError extends Error {
  constructor(readonly call: string) {
    super(`${call} is not supported by ${runtime}`);
    this.name = 'UnsupportedCallError';
  }
}

/** Throws the error naming an unsupported call. */
export function unsupported(call: string): never {
  throw new UnsupportedCallError(call);
}

/** A function standing for an unsupported method: calling it (or `new` on it) throws. */
export function unsupportedFunction(call: string): (...args: unknown[]) => never {
  return function notSupported() {
    return unsupported(call);
  };
}

/**
 * `target` where every other property read yields an unsupported function named `<name>.<prop>`
 * (symbols and `then` stay undefined, so the object is not mistaken for a promise).
 */
export function strict<T extends object>(name: string, target: T): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === 'symbol' || prop in t) return Reflect.get(t, prop, receiver);
      if (prop === 'then' || prop === 'toJSON') return undefined;
      return unsupportedFunction(`${name}.${prop}()`);
    },
  });
}

/** A namespace of 0.22's JS API ($os, $http, ...) with only `implemented` working. */
export function namespace(name: string, implemented: Record<string, unknown> = {}): object {
  return strict(name, { ...implemented });
}
