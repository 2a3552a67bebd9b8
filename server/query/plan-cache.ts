// Compiled list queries kept per collections version (the collections' cache object: a changed
// collection, rule or index makes a new one, and the plans compiled against the old go with it).
// Only what no request value can change is kept: the caller passes a null key for queries that
// read `@request.*` or a date macro (`@now`...), which are compiled per request as before.
// Bounded: a client inventing filters only evicts older plans.
const KEPT = 1000;
const plans = new WeakMap<object, Map<string, unknown>>();

export function cachedPlan<P>(version: object, key: string | null, build: () => P): P {
  if (key === null) return build();
  let kept = plans.get(version);
  if (!kept) plans.set(version, (kept = new Map()));
  let plan = kept.get(key) as P | undefined;
  if (plan === undefined) {
    // a query that does not compile throws here and is compiled (and refused) again next time
    plan = build();
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(key, plan);
  }
  return plan;
}
