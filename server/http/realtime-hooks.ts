// 0.22's realtime hooks (apis/realtime.go): onRealtimeConnectRequest before the stream opens
// (e.client, e.idleTimeout in nanoseconds as Go's Duration, which a handler may change; an error,
// or a response a handler wrote, is the answer instead of the stream),
// onRealtime{Before,After}MessageSend around each message a client is sent (e.message {name,
// data}, which a before-handler may change or skip with false; an error closes the connection),
// onRealtimeBeforeSubscribeRequest (e.subscriptions, which a handler may change; false or a
// written response answers instead), onRealtimeAfterSubscribeRequest, and
// onRealtimeDisconnectRequest once a client is gone. The events of a connection carry its connect
// request as e.httpContext, kept only while some realtime hook has handlers.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Client, Message, MessageHooks } from '../realtime/broker';
import { apiErrorOf, invokeSafely } from '../hooks/errors';
import type { RequestWire, ResponseSnapshot } from '../hooks/protocol';
import { requestSnapshot } from './hook-routes';
import { answerIfDecided } from './record-hooks';

const CONNECT = 'onRealtimeConnectRequest';
const BEFORE_MESSAGE = 'onRealtimeBeforeMessageSend';
const AFTER_MESSAGE = 'onRealtimeAfterMessageSend';
const DISCONNECT = 'onRealtimeDisconnectRequest';

/** Each connection's request (0.22's HttpContext of its later events). */
const connectRequests = new WeakMap<Client, RequestWire>();

const clientOf = (client: Client) => ({ id: client.id, subscriptions: [...client.topics.keys()] });

/** onRealtimeBeforeSubscribeRequest: the subscriptions as the handlers leave them. */
export async function beforeSubscribe(ctx: AppContext, req: FastifyRequest, client: Client, subscriptions: string[]): Promise<string[]> {
  const hooks = ctx.hooks;
  if (!hooks?.has('onRealtimeBeforeSubscribeRequest')) return subscriptions;
  const event = { request: requestSnapshot(ctx, req), fields: { client: clientOf(client), subscriptions } };
  const result = await invokeSafely(() => hooks.trigger('onRealtimeBeforeSubscribeRequest', [], event), 'onRealtimeBeforeSubscribeRequest');
  if (result.outcome === 'error') throw apiErrorOf(result.error);
  answerIfDecided({ stopped: result.outcome === 'stop', response: result.response ?? null });
  const changed = result.event?.fields?.subscriptions;
  return Array.isArray(changed) ? changed.map(String) : subscriptions;
}

export async function afterSubscribe(ctx: AppContext, req: FastifyRequest, client: Client): Promise<void> {
  const hooks = ctx.hooks;
  if (!hooks?.has('onRealtimeAfterSubscribeRequest')) return;
  const event = { request: requestSnapshot(ctx, req), fields: { client: clientOf(client), subscriptions: [...client.topics.keys()] } };
  const result = await invokeSafely(() => hooks.trigger('onRealtimeAfterSubscribeRequest', [], event), 'onRealtimeAfterSubscribeRequest');
  if (result.outcome === 'error') throw apiErrorOf(result.error);
  answerIfDecided({ stopped: result.outcome === 'stop', response: result.response ?? null });
}

/** onRealtimeDisconnectRequest: a notification (nothing can be answered any more). */
export function afterDisconnect(ctx: AppContext, client: Client, subscriptions: string[]): void {
  const hooks = ctx.hooks;
  if (!hooks?.has(DISCONNECT)) return;
  const event = { request: connectRequests.get(client), fields: { client: { id: client.id, subscriptions } } };
  void invokeSafely(() => hooks.trigger(DISCONNECT, [], event), DISCONNECT);
}

/** Whether a connection's later events need its request (fixed for an app instance). */
export const keepsConnectRequest = (ctx: AppContext): boolean => [CONNECT, BEFORE_MESSAGE, AFTER_MESSAGE, DISCONNECT].some((name) => !!ctx.hooks?.has(name));

export function keepConnectRequest(ctx: AppContext, req: FastifyRequest, client: Client): void {
  connectRequests.set(client, requestSnapshot(ctx, req));
}

/**
 * onRealtimeConnectRequest, before anything is written (a handler's error is thrown as the answer);
 * null when no handler runs, else the idle time the handlers left and a response one wrote.
 */
export async function connectRequest(ctx: AppContext, client: Client, idleMs: number): Promise<{ idleMs: number; response: ResponseSnapshot | null } | null> {
  const hooks = ctx.hooks;
  if (!hooks?.has(CONNECT)) return null;
  const event = { request: connectRequests.get(client), fields: { client: clientOf(client), idleTimeout: idleMs * 1e6 } };
  const result = await invokeSafely(() => hooks.trigger(CONNECT, [], event), CONNECT);
  if (result.outcome === 'error') throw apiErrorOf(result.error);
  const ns = result.event?.fields?.idleTimeout;
  return { idleMs: typeof ns === 'number' && ns > 0 ? ns / 1e6 : idleMs, response: result.response ?? null };
}

/** The message hooks for the broker; null without handlers (messages then go straight out). */
export function messageHooks(ctx: AppContext): MessageHooks | null {
  const hooks = ctx.hooks;
  if (!hooks || (!hooks.has(BEFORE_MESSAGE) && !hooks.has(AFTER_MESSAGE))) return null;
  const run = async (name: string, client: Client, message: Message) => {
    const event = { request: connectRequests.get(client), fields: { client: clientOf(client), message: { ...message } } };
    const result = await invokeSafely(() => hooks.trigger(name, [], event), name);
    if (result.outcome === 'error') throw new Error(`${name}: ${result.error?.message ?? 'failed'}`);
    return result;
  };
  return {
    async before(client, message) {
      if (!hooks.has(BEFORE_MESSAGE)) return message;
      const result = await run(BEFORE_MESSAGE, client, message);
      return result.outcome === 'stop' ? null : messageOf(result.event?.fields?.message, message);
    },
    async after(client, message) {
      if (hooks.has(AFTER_MESSAGE)) await run(AFTER_MESSAGE, client, message);
    },
  };
}

/** e.message as a handler left it: a name, and data as text (or the bytes of an array, 0.22's []byte). */
function messageOf(wire: unknown, original: Message): Message {
  if (!wire || typeof wire !== 'object') return original;
  const { name, data } = wire as { name?: unknown; data?: unknown };
  let text = original.data;
  if (typeof data === 'string') text = data;
  else if (data && typeof data === 'object') {
    const bytes = Object.values(data);
    if (bytes.every((b) => typeof b === 'number')) text = Buffer.from(bytes as number[]).toString('utf8');
  }
  return { name: typeof name === 'string' ? name : original.name, data: text };
}
