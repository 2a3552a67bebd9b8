// What a migration may call is what Outpost implements; any other method of a 0.22 object (a Dao
// method, a db builder method, `$os.exec`, ...) is named when called, and the call is remembered:
// the migration fails even when its code catches the error.
class UnsupportedCallError extends Error {
  constructor(readonly call: string) {
    super(`${call} is not supported by Outpost's JS migrations`);
    this.name = 'UnsupportedCallError';
  }
}

export interface CallLog {
  /** Records the call and throws its error. */
  unsupported(call: string): never;
  /** The first unsupported call made, if any. */
  first(): string | null;
}

export function createCallLog(): CallLog {
  let first: string | null = null;
  return {
    unsupported(call) {
      first ??= call;
      throw new UnsupportedCallError(call);
    },
    first: () => first,
  };
}

/** A function standing for an unsupported method: calling it (or `new` on it) fails. */
export function unsupportedFunction(call: string, log: CallLog): (...args: unknown[]) => never {
  return function unsupported() {
    return log.unsupported(call);
  };
}

/**
 * `target` where every other property read yields an unsupported function named `<name>.<prop>`
 * (symbols and `then` stay undefined, so the object is not mistaken for a promise).
 */
export function strict<T extends object>(name: string, target: T, log: CallLog): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === 'symbol' || prop in t) return Reflect.get(t, prop, receiver);
      if (prop === 'then' || prop === 'toJSON') return undefined;
      return unsupportedFunction(`${name}.${prop}()`, log);
    },
  });
}

/** A namespace of 0.22's JS API ($os, $http, ...) with only `implemented` working. */
export function namespace(name: string, log: CallLog, implemented: Record<string, unknown> = {}): object {
  return strict(name, { ...implemented }, log);
}
