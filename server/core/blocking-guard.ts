// Work that holds the thread it runs on (a password hash or check, a quarter of a second each) is
// refused while a hook handler runs inline on the main thread (../hooks/inline-runner.ts): the
// runner then gives the call to an executor, where it may block. The refusal is remembered even
// when the handler catches it, so a swallowed refusal never stands for a run.
class BlockingRefused extends Error {}

let depth = 0;
let refused = false;

/** Runs `fn` refusing blocking work; `refused`: whether it tried any (the run is void then). */
export function refusingBlocking<T>(fn: () => T): { value: T; refused: false } | { refused: true } {
  const outer = refused;
  depth++;
  refused = false;
  try {
    const value = fn();
    return refused ? { refused: true } : { value, refused: false };
  } catch (err) {
    if (refused) return { refused: true };
    throw err;
  } finally {
    depth--;
    refused = outer;
  }
}

/** Called before work that blocks: throws while refusingBlocking runs. */
export function mayBlock(what: string): void {
  if (depth === 0) return;
  refused = true;
  throw new BlockingRefused(`${what} blocks: not on the main thread`);
}
