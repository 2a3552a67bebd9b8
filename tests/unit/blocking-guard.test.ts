// server/core/blocking-guard.ts: blocking work is refused while a handler runs on the main thread,
// and a refusal counts even when the handler catches it; outside such a run nothing is refused.
import { describe, expect, it } from 'vitest';
import { mayBlock, refusingBlocking } from '../../server/core/blocking-guard';

describe('the blocking guard', () => {
  it('refuses blocking work inside a run, even when the run catches the refusal', () => {
    expect(refusingBlocking(() => 42)).toEqual({ value: 42, refused: false });
    expect(refusingBlocking(() => mayBlock('a hash'))).toEqual({ refused: true });
    expect(
      refusingBlocking(() => {
        try {
          mayBlock('a hash');
        } catch {
          return 'swallowed';
        }
        return 'went on';
      }),
    ).toEqual({ refused: true });
  });

  it('lets blocking work be outside a run, and a run after a refused one starts clean', () => {
    expect(() => mayBlock('a hash')).not.toThrow();
    refusingBlocking(() => mayBlock('a hash'));
    expect(refusingBlocking(() => 'clean')).toEqual({ value: 'clean', refused: false });
    expect(() => mayBlock('a hash')).not.toThrow();
  });

  it("passes a run's own error on", () => {
    expect(() => refusingBlocking(() => {
      throw new TypeError('its own');
    })).toThrow('its own');
  });
});
