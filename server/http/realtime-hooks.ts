// 0.22's realtime hooks around the subscription API: onRealtimeBeforeSubscribeRequest (e.client,
// e.subscriptions, which a handler may change; false or a written response answers instead),
// onRealtimeAfterSubscribeRequest, and onRealtimeDisconnectRequest once a client is gone.
// Connect and per-message hooks are not fired yet.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Client } from '../realtime/broker';
import { apiErrorOf, invokeSafely } from '../hooks/errors';
import { requestSnapshot } from './hook-routes';
import { answerIfDecided } from './record-hooks';

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
  if (!hooks?.has('onRealtimeDisconnectRequest')) return;
  void invokeSafely(() => hooks.trigger('onRealtimeDisconnectRequest', [], { fields: { client: { id: client.id, subscriptions } } }), 'onRealtimeDisconnectRequest');
}
