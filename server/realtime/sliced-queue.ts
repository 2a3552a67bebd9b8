// Broadcast work in time slices: jobs (iterators) run one after another in order, and a slice
// runs at most `sliceMs` before yielding to the event loop, so a fan-out to many subscriber
// groups never holds up requests. A job may be asynchronous (its steps wait on the read pool):
// while a step is pending the queue waits for it, so events still go out in order. The queue is
// bounded: past `maxJobs` pending events a new one is refused (and logged) rather than letting
// memory grow.
type Job = Iterator<unknown> | AsyncIterator<unknown>;

export class SlicedQueue {
  private readonly jobs: Job[] = [];
  private scheduled = false;
  private waiting = false;
  private stopped = false;

  constructor(
    private readonly sliceMs = 8,
    private readonly maxJobs = 10_000,
  ) {}

  get pending(): number {
    return this.jobs.length;
  }

  /** Queues a job; false when the queue is full or stopped. */
  push(job: Job): boolean {
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
    if (this.scheduled || this.waiting || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  /** A job's step ended: drop the job when it is done (or failed). */
  private settle(job: Job, done: boolean): void {
    if (done && this.jobs[0] === job) this.jobs.shift();
  }

  private run(): void {
    this.scheduled = false;
    const end = performance.now() + this.sliceMs;
    while (this.jobs.length > 0 && !this.stopped) {
      const job = this.jobs[0];
      let step: IteratorResult<unknown> | Promise<IteratorResult<unknown>>;
      try {
        step = job.next();
      } catch (err) {
        console.error('[realtime] broadcast job failed:', err);
        this.settle(job, true);
        continue;
      }
      if (step instanceof Promise) {
        this.waiting = true;
        step.then(
          (r) => this.settle(job, !!r.done),
          (err: unknown) => {
            console.error('[realtime] broadcast job failed:', err);
            this.settle(job, true);
          },
        ).finally(() => {
          this.waiting = false;
          if (this.jobs.length > 0) this.schedule();
        });
        return;
      }
      this.settle(job, !!step.done);
      if (performance.now() >= end) break;
    }
    if (this.jobs.length > 0) this.schedule();
  }
}
