// Broadcast work in time slices: jobs (iterators) run one after another in order, and a slice
// runs at most `sliceMs` before yielding to the event loop, so a fan-out to many subscriber
// groups (each one a rule query) never holds up requests. The queue is bounded: past `maxJobs`
// pending events a new one is refused (and logged) rather than letting memory grow.
export class SlicedQueue {
  private readonly jobs: Array<Iterator<unknown>> = [];
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly sliceMs = 8,
    private readonly maxJobs = 10_000,
  ) {}

  get pending(): number {
    return this.jobs.length;
  }

  /** Queues a job; false when the queue is full or stopped. */
  push(job: Iterator<unknown>): boolean {
    if (this.stopped || this.jobs.length >= this.maxJobs) return false;
    this.jobs.push(job);
    this.schedule();
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.jobs.length = 0;
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  private run(): void {
    this.scheduled = false;
    const end = performance.now() + this.sliceMs;
    while (this.jobs.length > 0) {
      let done = true;
      try {
        done = !!this.jobs[0].next().done;
      } catch (err) {
        console.error('[realtime] broadcast job failed:', err);
      }
      if (done) this.jobs.shift();
      if (performance.now() >= end) break;
    }
    if (this.jobs.length > 0) this.schedule();
  }
}
