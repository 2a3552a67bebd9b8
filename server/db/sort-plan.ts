// Whether SQLite reads a query's rows in its ORDER BY order from an index, so that it needs no
// temp B-tree to sort them: the records list then reads its page directly instead of through the
// late row look-up (query/list.ts), which only pays off when SQLite must sort whole rows.
// Asked of the compiled program (EXPLAIN QUERY PLAN: compiled, never run), once per statement and
// schema: answers live with the collections' cache, so a changed collection (its indexes) asks anew.
// The plan is made for the first values seen (SQLite's STAT4 weighs them): where values sway it,
// it sways between an index that gives the order and a sort of the few rows another index finds,
// and either answer keeps the sort off the whole of a large table.
import type { DB } from './database';

const KEPT = 500;
const answers = new WeakMap<object, Map<string, boolean>>();

/** `schema`: an object that changes whenever the schema may have (the collections' cache). */
export function sortsFromIndex(db: DB, schema: object, sql: string, params: readonly unknown[]): boolean {
  let known = answers.get(schema);
  if (!known) answers.set(schema, (known = new Map()));
  let yes = known.get(sql);
  if (yes === undefined) {
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
      yes = !plan.some((step) => /TEMP B-TREE FOR (?:RIGHT PART OF )?ORDER BY/.test(step.detail));
    } catch {
      // cannot tell: the late look-up is right either way
      yes = false;
    }
    if (known.size >= KEPT) known.delete(known.keys().next().value as string);
    known.set(sql, yes);
  }
  return yes;
}
