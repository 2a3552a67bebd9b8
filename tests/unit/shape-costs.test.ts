// When a read shape runs in the main process (ShapeCosts.isFast): after three runs under 5 ms,
// one overrun under 25 ms among the last three tolerated (a shared core's preemption); two, or
// one of 25 ms or more, send it back to the pool.
import { describe, expect, it } from 'vitest';
import { ShapeCosts } from '../../server/db/read-admission';

describe('ShapeCosts.isFast', () => {
  it('needs three runs, all but one under 5 ms', () => {
    const costs = new ShapeCosts();
    expect(costs.isFast('q')).toBe(false);
    costs.record('q', 0.2);
    costs.record('q', 0.2);
    expect(costs.isFast('q')).toBe(false);
    costs.record('q', 0.2);
    expect(costs.isFast('q')).toBe(true);
    // one run measured slow (a preempted read): still fast
    costs.record('q', 7);
    expect(costs.isFast('q')).toBe(true);
    // a second one among the last three: back to the pool until two of three are fast again
    costs.record('q', 6);
    expect(costs.isFast('q')).toBe(false);
    costs.record('q', 0.2);
    expect(costs.isFast('q')).toBe(false);
    costs.record('q', 0.2);
    expect(costs.isFast('q')).toBe(true);
  });

  it('sends a shape back at once on a run of 25 ms or more (a main-process run records up to 49), or stopped at its budget', () => {
    const costs = new ShapeCosts();
    for (const ms of [0.2, 0.2, 0.2, 49]) costs.record('q', ms);
    expect(costs.isFast('q')).toBe(false);
    expect(costs.isCheap('q')).toBe(true);
    for (const ms of [0.2, 0.2, Infinity]) costs.record('r', ms);
    expect(costs.isFast('r')).toBe(false);
    expect(costs.isCheap('r')).toBe(false);
  });
});
