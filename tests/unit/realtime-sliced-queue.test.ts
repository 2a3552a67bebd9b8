// The realtime broadcast queue: jobs run in order, a long job yields to the event loop between
// slices (other callbacks run in between), and a full queue refuses new jobs.
import { describe, expect, it } from 'vitest';
import { SlicedQueue } from '../../server/realtime/sliced-queue';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin */
  }
};

describe('SlicedQueue', () => {
  it('runs jobs in order and lets other callbacks run between slices', async () => {
    const queue = new SlicedQueue(5);
    const log: string[] = [];
    function* job(name: string, steps: number) {
      for (let i = 0; i < steps; i++) {
        busy(2);
        log.push(`${name}${i}`);
        yield;
      }
    }
    queue.push(job('a', 10));
    queue.push(job('b', 3));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await new Promise<void>((resolve) => {
      const check = () => (queue.pending === 0 ? resolve() : setTimeout(check, 5));
      check();
    });
    clearInterval(timer);
    expect(log).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'b0', 'b1', 'b2']);
    // 26 ms of work in slices of about 5 ms: the timer got to run in between
    expect(ticks).toBeGreaterThan(1);
  });

  it('refuses jobs past its bound and after stop', () => {
    const queue = new SlicedQueue(5, 2);
    const idle = () => [][Symbol.iterator]();
    expect(queue.push(idle())).toBe(true);
    expect(queue.push(idle())).toBe(true);
    expect(queue.push(idle())).toBe(false);
    queue.stop();
    expect(queue.pending).toBe(0);
    expect(queue.push(idle())).toBe(false);
  });
});
