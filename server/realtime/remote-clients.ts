// In a cluster, a realtime client's stream is held by one member while its other calls (the
// subscribe POST, the OAuth2 redirect naming it) may reach any member: those are passed on to the
// member that holds the client, which applies them to its broker and says how it went.
import { randomUUID } from 'node:crypto';
import type { ClusterChannel } from '../cluster/channel';
import type { Broker, ClientAuth } from './broker';

/** How long the member that got the call waits for the holder's word. */
const HOLDER_TIMEOUT_MS = 2_000;

type SubscribeOutcome = 'ok' | 'missing' | 'forbidden' | 'client' | 'origin';

interface Question {
  rid: string;
  kind: 'subscribe' | 'oauth2';
  clientId: string;
  auth?: ClientAuth;
  subscriptions?: string[];
  topic?: string;
  data?: string;
}

interface Answer {
  rid: string;
  outcome: SubscribeOutcome;
}

export interface RemoteClients {
  /** Subscribes a client another member holds (its caps and the auth match checked there). */
  subscribe(clientId: string, auth: ClientAuth, subscriptions: string[]): Promise<SubscribeOutcome>;
  /** Sends the OAuth2 message to a client another member holds, if it waits for one on `topic`. */
  oauth2(clientId: string, topic: string, data: string): Promise<boolean>;
  close(): void;
}

export function bindRemoteClients(cluster: ClusterChannel, broker: Broker): RemoteClients {
  const waiting = new Map<string, (a: Answer) => void>();

  const hold = (q: Question): SubscribeOutcome | null => {
    const client = broker.get(q.clientId);
    if (!client || client.discarded) return null;
    if (q.kind === 'oauth2') {
      if (!client.topics.has(q.topic!)) return 'missing';
      broker.removeTopic(client, q.topic!);
      broker.sendMessage(client, q.topic!, q.data!);
      return 'ok';
    }
    const auth = q.auth!;
    if (client.auth.id !== '' && client.auth.id !== auth.id) return 'forbidden';
    const over = broker.optionGroupsOverCap(client, q.subscriptions!);
    if (over) return over;
    client.auth = auth;
    broker.setTopics(client, q.subscriptions!);
    return 'ok';
  };
  const offs = [
    cluster.subscribe('realtime.call', (message) => {
      const q = message as Question;
      const outcome = hold(q);
      if (outcome) cluster.publish('realtime.answer', { rid: q.rid, outcome } satisfies Answer);
    }),
    cluster.subscribe('realtime.answer', (message) => {
      const a = message as Answer;
      waiting.get(a.rid)?.(a);
    }),
  ];
  const call = (q: Omit<Question, 'rid'>) =>
    new Promise<SubscribeOutcome>((resolve) => {
      const rid = randomUUID();
      const timer = setTimeout(() => {
        waiting.delete(rid);
        resolve('missing');
      }, HOLDER_TIMEOUT_MS);
      waiting.set(rid, (a) => {
        clearTimeout(timer);
        waiting.delete(rid);
        resolve(a.outcome);
      });
      cluster.publish('realtime.call', { ...q, rid } satisfies Question);
    });

  return {
    subscribe: (clientId, auth, subscriptions) => call({ kind: 'subscribe', clientId, auth, subscriptions }),
    oauth2: async (clientId, topic, data) => (await call({ kind: 'oauth2', clientId, topic, data })) === 'ok',
    close() {
      for (const off of offs) off();
    },
  };
}
