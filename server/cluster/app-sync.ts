// What keeps the members of a cluster consistent with each other, for one app (createApp):
// - a settings save or a collection change is broadcast, and the answer to the request that made
//   it waits (pendingAcks, awaited by the HTTP layer before it answers) until every other member
//   has reloaded its copy, bounded by INVALIDATION_TIMEOUT_MS;
// - a restore pauses every other member (its instance closed, its requests held) while the data
//   dir is swapped, and resumes them on the new content; a member that was not paused (it joined
//   meanwhile) reopens its data when it hears the resume.
import type { AppContext, RestartPlan } from '../context';
import { invalidateCollections, onCollectionsChange } from '../collections/store';
import { INVALIDATION_TIMEOUT_MS, type ClusterChannel } from './channel';

/** How long a paused member waits for the restoring one before it opens the data dir again anyway. */
const PAUSE_MAX_MS = 120_000;

/** A restart that changes nothing on disk: the instance closes and opens the data dir again. */
const REOPEN: RestartPlan = { apply: async () => undefined, revert: async () => undefined };

const pending = new WeakMap<ClusterChannel, Set<Promise<unknown>>>();

/** Broadcasts still waiting for acks: a response waits for those under way when it is sent. */
export function pendingAcks(channel: ClusterChannel): Set<Promise<unknown>> {
  let set = pending.get(channel);
  if (!set) pending.set(channel, (set = new Set()));
  return set;
}

function track(channel: ClusterChannel, p: Promise<{ acked: number; expected: number }>, what: string): void {
  const set = pendingAcks(channel);
  const done = p.then(({ acked, expected }) => {
    if (acked < expected) console.error(`[cluster] ${what}: ${expected - acked} member(s) did not confirm within ${INVALIDATION_TIMEOUT_MS} ms`);
  });
  set.add(done);
  void done.finally(() => set.delete(done));
}

type Restart = (plan: RestartPlan, after?: Promise<void>, hooks?: undefined, remote?: boolean) => Promise<void>;

export interface ClusterSync {
  /** Wires one instance's changes to the channel; returns what undoes it (the instance closes). */
  watch(ctx: AppContext): () => void;
  /** Around a restore's swap: the other members pause before it, resume after it. */
  pauseOthers(): Promise<() => void>;
  close(): void;
}

export function createClusterSync(channel: ClusterChannel, current: () => AppContext, restart: Restart): ClusterSync {
  let remote = false;
  const resumes = new Map<string, () => void>();
  const offs = [
    channel.subscribe('settings', () => {
      remote = true;
      try {
        current().settings.reload();
      } finally {
        remote = false;
      }
    }),
    channel.subscribe('collections', () => invalidateCollections(current())),
    channel.subscribe(
      'pause',
      (data) =>
        new Promise<void>((closed) => {
          const id = String((data as { id: string }).id);
          const resumed = new Promise<void>((resolve) => {
            resumes.set(id, resolve);
            setTimeout(resolve, PAUSE_MAX_MS).unref();
          });
          const plan: RestartPlan = {
            apply: async () => {
              closed();
              await resumed;
            },
            revert: async () => undefined,
          };
          restart(plan, undefined, undefined, true).catch((err: unknown) => {
            closed();
            console.error(`[cluster] pause for a restore failed: ${err instanceof Error ? err.message : String(err)}`);
          });
        }),
    ),
    channel.subscribe('resume', (data) => {
      const id = String((data as { id: string }).id);
      const resume = resumes.get(id);
      resumes.delete(id);
      if (resume) return resume();
      // never paused for it (it joined during the swap): it may hold files of the old data, or
      // of half the new, so it reopens too
      restart(REOPEN, undefined, undefined, true).catch((err: unknown) => {
        console.error(`[cluster] reopening after another member's restore failed: ${err instanceof Error ? err.message : String(err)}`);
      });
    }),
  ];

  return {
    watch(ctx) {
      const offSettings = ctx.settings.subscribe(() => {
        if (!remote) track(channel, channel.broadcast('settings', {}, INVALIDATION_TIMEOUT_MS), 'settings change');
      });
      const offCollections = onCollectionsChange(ctx, () => track(channel, channel.broadcast('collections', {}, INVALIDATION_TIMEOUT_MS), 'collections change'));
      return () => {
        offSettings();
        offCollections();
      };
    },
    async pauseOthers() {
      const id = `${channel.memberId}:${Date.now()}`;
      const { acked, expected } = await channel.broadcast('pause', { id }, INVALIDATION_TIMEOUT_MS * 3);
      if (acked < expected) console.error(`[cluster] restore: ${expected - acked} member(s) did not pause in time`);
      return () => channel.publish('resume', { id });
    },
    close() {
      for (const off of offs) off();
      for (const resume of resumes.values()) resume();
    },
  };
}
