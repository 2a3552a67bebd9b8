// A sign-in limiter counted across a cluster (serve --workers, --natsUrl): each attempt asks the
// coordinator, one round trip per sign-in, so N members allow what one does. Alone, or when the
// coordinator does not answer in time (the leader just changed), the member's own limiter decides.
import { ASK_TIMEOUT_MS, type ClusterChannel } from '../cluster/channel';
import type { AttemptAnswer } from '../cluster/coordinator';
import { createAttemptLimiter, type AttemptLimiterOptions } from './rate-limit';

type Attempt = { blocked: true; retryAfterMs: number } | { blocked: false; succeeded(): void };

export interface SharedAttemptLimiter {
  attempt(key: string, source: string): Promise<Attempt>;
}

export function createSharedAttemptLimiter(name: string, options: AttemptLimiterOptions, cluster: ClusterChannel | undefined): SharedAttemptLimiter {
  const local = createAttemptLimiter(options);
  if (!cluster) return { attempt: async (key, source) => local.attempt(key, source) };
  const { limit, sourceLimit, windowMs } = options;
  return {
    async attempt(key, source) {
      let answer: AttemptAnswer;
      try {
        answer = (await cluster.ask('limit.attempt', { name, limit, sourceLimit, windowMs, key, source }, ASK_TIMEOUT_MS)) as AttemptAnswer;
      } catch {
        return local.attempt(key, source);
      }
      if (answer.blocked) return answer;
      const { ticket } = answer;
      return { blocked: false, succeeded: () => void cluster.ask('limit.succeeded', { ticket }, ASK_TIMEOUT_MS).catch(() => undefined) };
    },
  };
}
