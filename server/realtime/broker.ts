// The realtime broker (0.22's tools/subscriptions): connected clients by id, their topics, an
// index from topic to subscribers, and delivery of ready-made SSE frames. It knows nothing of
// HTTP: a client writes to a Sink, which the route wires to the response stream.
//
// Delivery never waits for a client: a frame is handed to the socket and, when a client's unsent
// backlog would pass MAX_BUFFERED_BYTES (it stopped reading), the client is dropped instead of
// buffering without bound. Its EventSource reconnects and resubmits when it reads again.
import { randomInt } from 'node:crypto';
import { parseTopic, type ParsedTopic } from './topics';

/** What a connection can do: write a chunk, tell how many bytes wait unsent, close. */
export interface Sink {
  write(chunk: string): void;
  bufferedBytes(): number;
  close(): void;
}

/** Who a client's subscriptions were submitted as (set by POST /api/realtime). */
export interface ClientAuth {
  kind: 'guest' | 'admin' | 'authRecord';
  /** Admin or auth record id ('' for guests). */
  id: string;
  collectionId?: string;
  /** The tokenKey when subscribed: a different one later (password change) revokes the auth. */
  tokenKey?: string;
}

export interface Client {
  readonly id: string;
  /** Where the connection comes from (the IP address): subscription caps count per origin too. */
  readonly origin: string;
  auth: ClientAuth;
  /** Topics by their submitted name. */
  topics: Map<string, ParsedTopic>;
  /** Set once unregistered: nothing is sent to it any more. */
  discarded: boolean;
}

interface ClientState extends Client {
  sink: Sink;
  idle: NodeJS.Timeout | null;
  idleMs: number;
  /** Messages waiting for the message hooks, one after the other, and their size. */
  hooked: Promise<void>;
  queuedBytes: number;
}

/** An SSE message: its event name and data (JSON text). */
export interface Message {
  name: string;
  data: string;
}

/**
 * What runs around each message a client is sent (pb_hooks' onRealtime{Before,After}MessageSend,
 * wired by the HTTP layer): `before` gives the message to write (as a handler changed it) or null
 * to skip it, `after` follows the write; either rejecting drops the client (0.22 closes the
 * connection). A client's messages go through them one at a time, in order.
 */
export interface MessageHooks {
  before(client: Client, message: Message): Promise<Message | null>;
  after(client: Client, message: Message): Promise<void>;
}

const GUEST: ClientAuth = Object.freeze({ kind: 'guest', id: '' }) as ClientAuth;
/**
 * A client whose unsent backlog would pass this is dropped (a slow or stalled reader). One frame
 * larger than this still goes to a client that has read everything before it.
 */
const MAX_BUFFERED_BYTES = 1 << 20;
/** Distinct topic option sets a client may hold, and all clients of one origin together. */
export const MAX_OPTION_GROUPS_PER_CLIENT = 100;
export const MAX_OPTION_GROUPS_PER_ORIGIN = 500;

/** The option sets of `topics` (a topic without options is in none: it needs no filter check). */
const NO_OPTIONS = parseTopic('-').optionsKey;
const distinctOptions = (topics: Iterable<ParsedTopic>) => new Set(Array.from(topics, (t) => t.optionsKey).filter((k) => k !== NO_OPTIONS));

/** 0.22 closes a connection after 5 minutes without a message. */
export const DEFAULT_IDLE_MS = 5 * 60_000;

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** 0.22's security.RandomString(40). */
function newClientId(): string {
  let s = '';
  for (let i = 0; i < 40; i++) s += ID_CHARS[randomInt(ID_CHARS.length)];
  return s;
}

/** One SSE frame as 0.22 writes it. `data` is already JSON. */
const sseFrame = (clientId: string, event: string, data: string) => `id:${clientId}\nevent:${event}\ndata:${data}\n\n`;

export interface Subscriber {
  client: Client;
  topic: ParsedTopic;
}

export class Broker {
  private readonly clients = new Map<string, ClientState>();
  /** base topic → client id → that client's topics with that base (several option variants). */
  private readonly index = new Map<string, Map<string, ParsedTopic[]>>();

  /** Set when pb_hooks have message handlers (nothing else pays for them). */
  messageHooks: MessageHooks | null = null;

  /** Told the client count after each change (a cluster member's word to the others). */
  onCount: ((count: number) => void) | null = null;

  constructor(private readonly idleMs = DEFAULT_IDLE_MS) {}

  get size(): number {
    return this.clients.size;
  }

  register(sink: Sink, origin = ''): Client {
    const client: ClientState = { id: newClientId(), origin, auth: GUEST, topics: new Map(), discarded: false, sink, idle: null, idleMs: this.idleMs, hooked: Promise.resolve(), queuedBytes: 0 };
    this.clients.set(client.id, client);
    this.startIdle(client);
    this.onCount?.(this.clients.size);
    return client;
  }

  /** A client's own idle time (0.22's e.idleTimeout of its connect event), counted from now. */
  setIdleTimeout(client: Client, ms: number): void {
    const state = this.clients.get(client.id);
    if (!state || state.discarded) return;
    state.idleMs = ms;
    this.startIdle(state);
  }

  private startIdle(state: ClientState): void {
    if (state.idle) clearTimeout(state.idle);
    state.idle = setTimeout(() => this.unregister(state.id), state.idleMs);
    state.idle.unref();
  }

  get(id: string): Client | undefined {
    return this.clients.get(id);
  }

  all(): Client[] {
    return [...this.clients.values()];
  }

  /** Removes a client and closes its stream (safe to call twice). */
  unregister(id: string): void {
    const client = this.clients.get(id);
    if (!client) return;
    this.clients.delete(id);
    this.onCount?.(this.clients.size);
    client.discarded = true;
    if (client.idle) clearTimeout(client.idle);
    // (closed first: the sink may still read the client's topics)
    try {
      client.sink.close();
    } catch {
      // already gone
    }
    this.unindex(client);
    client.topics.clear();
  }

  /**
   * Which cap the topics `names` would break for `client`, if any: each distinct set of topic
   * options is one subscriber group every matching event is checked for, so a client (and all
   * clients of one origin) may hold only so many.
   */
  optionGroupsOverCap(client: Client, names: string[]): 'client' | 'origin' | null {
    const mine = distinctOptions(names.filter((n) => n !== '').map(parseTopic));
    if (mine.size > MAX_OPTION_GROUPS_PER_CLIENT) return 'client';
    let total = mine.size;
    for (const other of this.clients.values()) {
      if (other.id !== client.id && other.origin === client.origin) total += distinctOptions(other.topics.values()).size;
    }
    return total > MAX_OPTION_GROUPS_PER_ORIGIN ? 'origin' : null;
  }

  /** Replaces every subscription of `client` (an empty list unsubscribes from all). */
  setTopics(client: Client, names: string[]): void {
    const state = this.clients.get(client.id);
    if (!state) return;
    this.unindex(state);
    state.topics = new Map();
    for (const name of names) {
      if (name === '') continue;
      state.topics.set(name, parseTopic(name));
    }
    for (const topic of state.topics.values()) {
      let byClient = this.index.get(topic.base);
      if (!byClient) this.index.set(topic.base, (byClient = new Map()));
      const list = byClient.get(state.id);
      if (list) list.push(topic);
      else byClient.set(state.id, [topic]);
    }
  }

  /** Removes one topic by its submitted name (the @oauth2 hand-over). */
  removeTopic(client: Client, name: string): void {
    const names = [...client.topics.keys()].filter((n) => n !== name);
    if (names.length !== client.topics.size) this.setTopics(client, names);
  }

  /** Every (client, topic) whose base topic is one of `bases`. */
  subscribers(bases: string[]): Subscriber[] {
    const out: Subscriber[] = [];
    for (const base of new Set(bases)) {
      const byClient = this.index.get(base);
      if (!byClient) continue;
      for (const [id, topics] of byClient) {
        const client = this.clients.get(id);
        if (!client || client.discarded) continue;
        for (const topic of topics) out.push({ client, topic });
      }
    }
    return out;
  }

  /** Sends a message (as a frame, through the message hooks when there are). */
  sendMessage(client: Client, name: string, data: string): void {
    const hooks = this.messageHooks;
    if (!hooks) return this.send(client, sseFrame(client.id, name, data));
    const state = this.clients.get(client.id);
    if (!state || state.discarded) return;
    // messages waiting for their hooks are unsent backlog too
    const size = name.length + data.length;
    if (state.queuedBytes > 0 && state.sink.bufferedBytes() + state.queuedBytes + size > MAX_BUFFERED_BYTES) {
      this.unregister(state.id);
      return;
    }
    state.queuedBytes += size;
    state.hooked = state.hooked
      .then(async () => {
        state.queuedBytes -= size;
        if (state.discarded) return;
        const message = await hooks.before(state, { name, data });
        if (!message || state.discarded) return;
        this.send(state, sseFrame(state.id, message.name, message.data));
        await hooks.after(state, message);
      })
      .catch(() => this.unregister(state.id));
  }

  /** Writes a frame to a client; a client that stopped reading is dropped, never buffered without bound. */
  send(client: Client, frame: string): void {
    const state = this.clients.get(client.id);
    if (!state || state.discarded) return;
    const backlog = state.sink.bufferedBytes();
    if (backlog > 0 && backlog + frame.length > MAX_BUFFERED_BYTES) {
      this.unregister(state.id);
      return;
    }
    state.sink.write(frame);
    state.idle?.refresh();
  }

  closeAll(): void {
    for (const id of [...this.clients.keys()]) this.unregister(id);
  }

  private unindex(client: ClientState): void {
    for (const topic of client.topics.values()) {
      const byClient = this.index.get(topic.base);
      if (!byClient) continue;
      byClient.delete(client.id);
      if (byClient.size === 0) this.index.delete(topic.base);
    }
  }
}
