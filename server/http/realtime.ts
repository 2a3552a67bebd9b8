// GET/POST /api/realtime and GET /api/oauth2-redirect (0.22's apis/realtime.go and the OAuth2
// hand-over of apis/record_auth.go).
//
// The SSE response is hijacked from Fastify and written to the socket directly, so no onSend
// hook (compression, the fields filter) can transform or buffer it; `Cache-Control: no-store`
// and `X-Accel-Buffering: no` keep proxies from buffering it either.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, RequestAuth } from '../context';
import { Broker, DEFAULT_IDLE_MS, MAX_OPTION_GROUPS_PER_CLIENT, MAX_OPTION_GROUPS_PER_ORIGIN, type Client, type ClientAuth, type Sink } from '../realtime/broker';
import { bindRemoteClients, type RemoteClients } from '../realtime/remote-clients';
import { badRequest, forbidden, notFound } from '../core/errors';
import { stringifyLikeGo } from '../core/json';
import { validateBody } from '../core/body-validator';
import { readBody } from './form-bind';
import { bindRecordEvents } from '../realtime/broadcast';
import { afterDisconnect, afterSubscribe, beforeSubscribe, connectRequest, keepConnectRequest, keepsConnectRequest, messageHooks } from './realtime-hooks';
import { sendWritten } from './hook-routes';
import { clientAddress } from './client-address';
import { scopedAccess } from './permissions';
import { findCollection } from '../collections/store';
import { parseTopic } from '../realtime/topics';

const OAUTH2_TOPIC = '@oauth2';
const OAUTH2_FAILURE = '../_/#/auth/oauth2-redirect-failure';
const OAUTH2_SUCCESS = '../_/#/auth/oauth2-redirect-success';

const brokers = new WeakMap<AppContext, Broker>();

/** The app's broker (tests and the bench read it). */
export function brokerOf(ctx: AppContext): Broker | undefined {
  return brokers.get(ctx);
}

export function registerRealtime(app: FastifyInstance, ctx: AppContext): void {
  const idleMs = ctx.options.realtimeIdleMs ?? DEFAULT_IDLE_MS;
  const broker = new Broker(idleMs);
  brokers.set(ctx, broker);
  const unbind = bindRecordEvents(ctx, broker);
  // in a cluster, calls for a client another member holds are passed on to it
  const remote = ctx.options.cluster ? bindRemoteClients(ctx.options.cluster, broker) : null;
  // end the streams before the server waits for its connections
  app.addHook('preClose', async () => {
    unbind();
    remote?.close();
    broker.closeAll();
  });

  // whether realtime hooks have handlers is fixed for an app instance: without, a connection and
  // its messages pay for none
  const keepRequest = keepsConnectRequest(ctx);
  broker.messageHooks = messageHooks(ctx);

  app.get('/api/realtime', async (req, reply) => {
    const res = reply.raw;
    // the stream opens once onRealtimeConnectRequest let it: a refusal is answered as any error
    let open = false;
    let droppedTopics: string[] = [];
    const sink: Sink = {
      write: (chunk) => void res.write(chunk),
      bufferedBytes: () => res.writableLength + (res.socket?.writableLength ?? 0),
      close: () => {
        // (the broker closes a client before it forgets its topics: the disconnect event lists them)
        droppedTopics = [...client.topics.keys()];
        if (!open) return;
        res.end();
        // a peer that never reads would keep the socket half-open: do not wait for it
        setTimeout(() => res.destroy(), 1000).unref();
      },
    };
    const client = broker.register(sink, clientAddress(ctx, req));
    let ended = false;
    const gone = () => {
      if (ended) return;
      ended = true;
      const topics = client.discarded ? droppedTopics : [...client.topics.keys()];
      broker.unregister(client.id);
      afterDisconnect(ctx, client, topics);
    };
    req.raw.on('close', gone);
    res.on('close', gone);
    res.on('error', gone);
    if (keepRequest) {
      keepConnectRequest(ctx, req, client);
      const connect = await connectRequest(ctx, client, idleMs).catch((err: unknown) => {
        gone();
        throw err;
      });
      if (connect?.response) {
        gone();
        return sendWritten(reply, { outcome: 'continue', response: connect.response });
      }
      if (connect && connect.idleMs !== idleMs) broker.setIdleTimeout(client, connect.idleMs);
    }
    reply.hijack();
    if (ended) return;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    });
    open = true;
    res.socket?.setNoDelay(true);
    // (PB_CONNECT may wait for its hooks, or be skipped by them: the stream is open meanwhile)
    res.flushHeaders();
    broker.sendMessage(client, 'PB_CONNECT', stringifyLikeGo({ clientId: client.id }));
  });

  app.post('/api/realtime', async (req, reply) => {
    // 0.22 answers an unreadable subscribe body with its generic 400 message
    const form = readForm(readBody(req, { clientId: 'string', subscriptions: 'strings' }));
    const { clientId } = form;
    const local = broker.get(clientId);
    if (remote && (!local || local.discarded)) return subscribeRemote(ctx, remote, req, reply, clientId, form.subscriptions);
    const client = local;
    if (!client || client.discarded) throw notFound('Missing or invalid client id.');
    const auth = clientAuthOf(ctx, req.auth);
    if (client.auth.id !== '' && client.auth.id !== auth.id) {
      throw forbidden("The current and the previous request authorization don't match.");
    }
    const subscriptions = await beforeSubscribe(ctx, req, client, form.subscriptions);
    refuseUnreadTopics(ctx, req, subscriptions);
    const over = broker.optionGroupsOverCap(client, subscriptions);
    if (over) throw tooManyOptionGroups(over);
    client.auth = auth;
    broker.setTopics(client, subscriptions);
    await afterSubscribe(ctx, req, client);
    return reply.status(204).send();
  });

  app.get('/api/oauth2-redirect', async (req, reply) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const first = (k: string) => {
      const v = Array.isArray(query[k]) ? (query[k] as unknown[])[0] : query[k];
      return typeof v === 'string' ? v : '';
    };
    const state = first('state');
    const client = state ? broker.get(state) : undefined;
    const data: Record<string, string> = { state, code: first('code') };
    const error = first('error');
    if (error) data.error = error;
    if (remote && state && (!client || client.discarded)) {
      const sent = await remote.oauth2(state, OAUTH2_TOPIC, stringifyLikeGo(data));
      return reply.redirect(!sent || error || !data.code ? OAUTH2_FAILURE : OAUTH2_SUCCESS, 307);
    }
    if (!client || client.discarded || !client.topics.has(OAUTH2_TOPIC)) return reply.redirect(OAUTH2_FAILURE, 307);
    broker.removeTopic(client, OAUTH2_TOPIC);
    broker.sendMessage(client, OAUTH2_TOPIC, stringifyLikeGo(data));
    return reply.redirect(error || !data.code ? OAUTH2_FAILURE : OAUTH2_SUCCESS, 307);
  });
}

function tooManyOptionGroups(over: 'client' | 'origin'): Error {
  const message =
    over === 'client'
      ? `At most ${MAX_OPTION_GROUPS_PER_CLIENT} subscriptions with distinct options per client.`
      : `At most ${MAX_OPTION_GROUPS_PER_ORIGIN} subscriptions with distinct options per IP address.`;
  return badRequest(undefined, { subscriptions: { code: 'validation_too_many_option_groups', message } });
}

/**
 * The subscribe POST for a client another member of the cluster holds: the hooks run here (with
 * the client as the call names it), the holder checks the auth match and the caps and applies it.
 */
async function subscribeRemote(ctx: AppContext, remote: RemoteClients, req: FastifyRequest, reply: FastifyReply, clientId: string, submitted: string[]) {
  const auth = clientAuthOf(ctx, req.auth);
  const stub: Client = { id: clientId, origin: clientAddress(ctx, req), auth, topics: new Map(), discarded: false };
  const subscriptions = await beforeSubscribe(ctx, req, stub, submitted);
  refuseUnreadTopics(ctx, req, subscriptions);
  const outcome = await remote.subscribe(clientId, auth, subscriptions);
  if (outcome === 'missing') throw notFound('Missing or invalid client id.');
  if (outcome === 'forbidden') throw forbidden("The current and the previous request authorization don't match.");
  if (outcome !== 'ok') throw tooManyOptionGroups(outcome);
  stub.topics = new Map(subscriptions.filter((n) => n !== '').map((n) => [n, parseTopic(n)]));
  await afterSubscribe(ctx, req, stub);
  return reply.status(204).send();
}

/** The subscribe form: a body of the right types (else 0.22's plain 400), judged by schemas/requests/realtime/subscribe. */
function readForm(body: unknown): { clientId: string; subscriptions: string[] } {
  const form = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  if (!form) throw badRequest();
  const { clientId, subscriptions } = form;
  if (clientId !== undefined && clientId !== null && typeof clientId !== 'string') throw badRequest();
  if (subscriptions !== undefined && subscriptions !== null) {
    if (!Array.isArray(subscriptions) || subscriptions.some((s) => typeof s !== 'string')) throw badRequest();
  }
  const judged = { clientId: clientId ?? '', subscriptions: (subscriptions ?? []) as string[] };
  validateBody('requests/realtime/subscribe', judged);
  return judged as { clientId: string; subscriptions: string[] };
}

/**
 * A scoped admin subscribes only to collections its role reads (403 otherwise, as its records
 * API answers); its events are judged again each time, so a later role change counts too.
 */
function refuseUnreadTopics(ctx: AppContext, req: FastifyRequest, topics: string[]): void {
  const access = scopedAccess(req);
  if (!access) return;
  for (const topic of topics) {
    const collection = findCollection(ctx, parseTopic(topic).base.split('/')[0]);
    if (collection && !access.records(collection, 'read')) throw forbidden();
  }
}

/** Who the POST was made as, with the tokenKey that a later password change will replace. */
function clientAuthOf(ctx: AppContext, auth: RequestAuth | undefined): ClientAuth {
  if (auth?.kind === 'admin' && auth.admin) {
    const id = String(auth.admin.id ?? '');
    const row = ctx.admins.findById(id);
    return row ? { kind: 'admin', id, tokenKey: row.tokenKey } : { kind: 'guest', id: '' };
  }
  if (auth?.kind === 'authRecord' && auth.record && auth.collectionId) {
    return {
      kind: 'authRecord',
      id: String(auth.record.id ?? ''),
      collectionId: auth.collectionId,
      tokenKey: String(auth.record.tokenKey ?? ''),
    };
  }
  return { kind: 'guest', id: '' };
}
