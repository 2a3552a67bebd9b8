// The signed-in shell's idle preload (an invisible rich-text editor is preloaded once signed
// in): requestIdleCallback with a deadline where it exists, a setTimeout fallback
// elsewhere, both cancellable.
import { describe, expect, it, vi } from 'vitest';
import { IDLE_FALLBACK_MS, IDLE_TIMEOUT_MS, onIdle } from '../../src/app/idle';

describe('onIdle', () => {
  it('uses requestIdleCallback with a timeout, and cancels it', () => {
    const ric = vi.fn((cb: () => void, _opts?: { timeout: number }) => (cb(), 7));
    const cic = vi.fn();
    const st = vi.fn();
    const fn = vi.fn();
    const cancel = onIdle(fn, { requestIdleCallback: ric, cancelIdleCallback: cic, setTimeout: st, clearTimeout: vi.fn() });
    expect(fn).toHaveBeenCalledTimes(1);
    expect(ric.mock.calls[0][1]).toEqual({ timeout: IDLE_TIMEOUT_MS });
    expect(st).not.toHaveBeenCalled();
    cancel();
    expect(cic).toHaveBeenCalledWith(7);
  });

  it('falls back to setTimeout without requestIdleCallback', () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn();
      onIdle(fn, globalThis as never);
      // node has no requestIdleCallback: the timeout fallback
      expect('requestIdleCallback' in globalThis).toBe(false);
      vi.advanceTimersByTime(IDLE_FALLBACK_MS - 1);
      expect(fn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(1);
      const other = vi.fn();
      const cancel = onIdle(other, globalThis as never);
      cancel();
      vi.advanceTimersByTime(IDLE_FALLBACK_MS * 2);
      expect(other).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
