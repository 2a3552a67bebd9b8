import { describe, expect, it } from 'vitest';
import { inOrder } from '../../src/lib/records-io/in-order';

const later = <T>(value: T, ms: number, fail = false) => new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(new Error(String(value))) : resolve(value)), ms));

describe('inOrder', () => {
  it('overlaps up to inFlight requests and consumes the results in order', async () => {
    let running = 0;
    let peak = 0;
    const got: number[] = [];
    await inOrder(
      7,
      3,
      async (i) => {
        running++;
        peak = Math.max(peak, running);
        // later pages answer first
        const v = await later(i, 30 - i * 4);
        running--;
        return v;
      },
      async (v) => {
        got.push(v);
        return true;
      },
    );
    expect(got).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(3);
  });

  it('stops when consume answers false and asks for nothing more', async () => {
    const asked: number[] = [];
    const got: number[] = [];
    await inOrder(10, 2, async (i) => (asked.push(i), later(i, 5)), async (v) => (got.push(v), v < 1));
    expect(got).toEqual([0, 1]);
    expect(Math.max(...asked)).toBeLessThanOrEqual(3);
  });

  it('rejects with the first failure in order; later failures stay handled', async () => {
    const got: number[] = [];
    await expect(inOrder(4, 4, (i) => later(i, 5, i >= 1), async (v) => (got.push(v), true))).rejects.toThrow('1');
    expect(got).toEqual([0]);
  });
});
