// Whether this process runs what must run once in a cluster (cron jobs of pb_hooks, automatic
// backups): a job fires in every member and runs only in the leader, so a change of leader (a
// worker died) moves the jobs without rescheduling them. A process alone is its own leader.
let leader: () => boolean = () => true;

export function isLeader(): boolean {
  return leader();
}

/** Set once by `serve` when the process is a member of a cluster. */
export function setLeaderSource(fn: () => boolean): void {
  leader = fn;
}
