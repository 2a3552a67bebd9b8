// Record events to realtime subscribers (0.22's realtimeApi.broadcastRecord): each subscriber
// gets {record, action} only when the collection's list rule ('<collection>/*') or view rule
// ('<collection>/<id>') lets its auth see the record, plus its own `filter`; the record is
// serialised exactly as the records API serialises it for that caller (email visibility,
// `expand`, `fields`; tokenKey and passwordHash never leave).
//
// Fan-out: subscribers are grouped by (rule, who they are, topic options). A group is checked
// and serialised once, and each member only gets its own `id:`/`event:` lines around the shared
// JSON, so a thousand guests watching one collection cost one rule query and one serialisation.
//
// Auth is read again from the database once per event and principal: a client whose account was
// deleted or whose tokenKey changed (password change) is evaluated as a guest from then on.
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import { countExpanded, expandFetch, expandRecords, MAX_EXPANDED_RECORDS, resolveEmailVisibility } from '../records/expand';
import { onRecordChange, onRecordDeleting } from '../records/events';
import type { RecordModel } from '../records/model';
import { authInfoFromRow, compileRule, type RuleCondition } from '../records/rules';
import { exportRecord } from '../records/serialize';
import { pendingRowOf, readRowById } from '../records/store';
import { QueryTimeoutError, type PendingRow } from '../db/database';
import type { RequestInfo } from '../query/record-resolver';
import type { Broker, Client, ClientAuth, Subscriber } from './broker';
import { SlicedQueue } from './sliced-queue';
import { clusterListeners } from './cluster-listeners';
import { runWithoutReadClient } from '../db/read-client';
import type { ParsedTopic } from './topics';
import { pickFields } from '../core/pick-fields';
import { stringifyLikeGo } from '../core/json';

type Action = 'create' | 'update' | 'delete';

/** A record event as another member of the cluster committed it. */
interface RemoteEvent {
  action: Action;
  collectionId: string;
  data: Record<string, unknown>;
}
type RuleKind = 'list' | 'view';

/** Who a client is right now: the RequestInfo auth value and a key equal for equal access. */
interface Principal {
  key: string;
  isAdmin: boolean;
  auth: Record<string, unknown> | null;
  /** A scoped admin: the collections its role reads now (read per event: a role change counts at once). */
  reads?: (collection: { id: string; name: string }) => boolean;
}

const GUEST_PRINCIPAL: Principal = { key: 'guest', isAdmin: false, auth: null };

/** A client's auth re-read from the database; guest when the account is gone or its tokenKey changed. */
function resolvePrincipal(ctx: AppContext, a: ClientAuth): Principal {
  if (a.kind === 'admin') {
    const admin = ctx.admins.findById(a.id);
    if (!admin || admin.tokenKey !== a.tokenKey) return GUEST_PRINCIPAL;
    const access = ctx.roles.accessOf(a.id);
    if (access.full) return { key: `admin:${a.id}`, isAdmin: true, auth: null };
    return { key: `admin:${a.id}`, isAdmin: true, auth: null, reads: (c) => access.records(c, 'read') };
  }
  if (a.kind === 'authRecord' && a.collectionId) {
    const found = ctx.records.findAuthRecord(a.collectionId, a.id);
    if (!found || String(found.record.tokenKey ?? '') !== a.tokenKey) return GUEST_PRINCIPAL;
    const auth = authInfoFromRow(ctx, found.collectionId, found.record);
    return auth ? { key: `record:${a.collectionId}:${a.id}`, isAdmin: false, auth } : GUEST_PRINCIPAL;
  }
  return GUEST_PRINCIPAL;
}

/** 0.22's topic → rule map for a record (by collection name or id; the bare name is legacy). */
function topicsOf(collection: Collection, id: string): Array<[string, RuleKind]> {
  return [
    [`${collection.name}/${id}`, 'view'],
    [`${collection.id}/${id}`, 'view'],
    [`${collection.name}/*`, 'list'],
    [`${collection.id}/*`, 'list'],
    [collection.name, 'list'],
    [collection.id, 'list'],
  ];
}

const ADMIN_ONLY_FILTER_FIELDS = ['@collection.', '@request.'];

/**
 * A rule check of one subscriber group runs on the read pool under this budget: a hostile rule (a
 * runaway view, a deep relation filter) is stopped and the group gets nothing, while requests and
 * the writer go on. Shorter than a request's budget: the broadcast queue waits for each check.
 */
const CHECK_BUDGET_MS = 5_000;

/** What a group's checks see: the pool's data, plus the deleted row for a delete event. */
interface CheckScope {
  pending?: PendingRow;
}

/** The record's row under `cond` exists (on the read pool, under the check budget). */
async function matches(ctx: AppContext, collection: Collection, id: string, cond: RuleCondition, scope: CheckScope): Promise<boolean> {
  try {
    const budgetMs = Math.min(ctx.reads.budgetMs, CHECK_BUDGET_MS);
    return (await readRowById(ctx, collection, id, cond, { pending: scope.pending, budgetMs })) !== null;
  } catch (err) {
    if (err instanceof QueryTimeoutError) console.error(`[realtime] a rule check on ${collection.name} was stopped after ${err.budgetMs} ms; its subscribers get no event`);
    return false;
  }
}

/** canAccessRecord: the rule (null: admins only, '': everyone), then the subscription's filter. */
async function canAccess(ctx: AppContext, collection: Collection, id: string, rule: string | null, info: RequestInfo, scope: CheckScope): Promise<boolean> {
  if (!info.isAdmin) {
    if (rule === null) return false;
    if (rule !== '') {
      let cond: RuleCondition;
      try {
        cond = compileRule(ctx, collection, rule, info, true);
      } catch {
        return false;
      }
      if (!(await matches(ctx, collection, id, cond, scope))) return false;
    }
  }
  const filter = typeof info.query.filter === 'string' ? info.query.filter : '';
  if (filter === '') return true;
  if (!info.isAdmin && ADMIN_ONLY_FILTER_FIELDS.some((f) => filter.includes(f))) return false;
  let cond: RuleCondition;
  try {
    cond = compileRule(ctx, collection, filter, info, info.isAdmin);
  } catch {
    return false;
  }
  return matches(ctx, collection, id, cond, scope);
}

/** The event JSON for one group, or null when the group may not see the record. */
async function eventData(
  ctx: AppContext,
  action: Action,
  record: RecordModel,
  rule: RuleKind,
  principal: Principal,
  topic: ParsedTopic,
  scope: CheckScope,
): Promise<string | null> {
  const collection = record.collection;
  if (principal.reads && !principal.reads(collection)) return null;
  const info: RequestInfo = {
    method: 'GET',
    query: topic.options.query,
    headers: topic.options.headers,
    data: {},
    auth: principal.auth,
    isAdmin: principal.isAdmin,
    ...(principal.reads ? { adminReads: principal.reads } : {}),
    context: 'realtime',
  };
  const id = String(record.data.id);
  if (!(await canAccess(ctx, collection, id, rule === 'list' ? collection.listRule : collection.viewRule, info, scope))) return null;

  // a clean copy: no expand or email flag from the writer's request
  const copy: RecordModel = { collection, data: { ...record.data } };
  await resolveEmailVisibility(ctx, [copy], info);
  const expand = topic.options.query.expand ?? '';
  if (expand) {
    await expandRecords(ctx, [copy], expand.split(','), expandFetch(ctx, info));
    // as the records API refuses such an expand, the event goes without it
    if (countExpanded([copy]) > MAX_EXPANDED_RECORDS) delete copy.expand;
  }
  let out: unknown = exportRecord(copy, { isAdmin: principal.isAdmin, authRecord: principal.auth });
  const fields = topic.options.query.fields ?? '';
  if (fields) {
    try {
      out = pickFields(out, fields);
    } catch {
      // a bad `fields` falls back to the whole record, as in 0.22
    }
  }
  return stringifyLikeGo({ record: out, action });
}

interface Delivery {
  client: Client;
  /** The event name (the client's topic) and its JSON. */
  name: string;
  data: string;
}

/** Groups whose checks run at once: as many as the read pool runs children (its default maximum). */
const GROUP_CHECKS_AT_ONCE = 4;

interface Group {
  rule: RuleKind;
  principal: Principal;
  topic: ParsedTopic;
  members: { client: Client; topic: ParsedTopic }[];
}

/**
 * A client that is a member of more groups than this in one event (many topics with distinct
 * options: one check each) gets that event's frames from the slow lane, after everyone else's.
 */
const LIGHT_GROUPS_PER_CLIENT = 10;

/** A group whose event needs no query: an admin without a filter, or an open rule without one. */
function checkFree(group: Group, collection: Collection): boolean {
  if (group.topic.options.query.filter || group.topic.options.query.expand) return false;
  if (group.principal.isAdmin && !group.principal.reads) return true;
  return (group.rule === 'list' ? collection.listRule : collection.viewRule) === '';
}

/** Who gets one record event, by lane: the record as its collection is now, and its subscribers. */
interface EventPlan {
  record: RecordModel;
  ruleOf: Map<string, RuleKind>;
  /** Subscribers of light clients: the ordered lane. */
  light: Subscriber[];
  /** Subscribers of heavy clients: the slow lane. */
  heavy: Subscriber[];
}

/**
 * Who gets one record event, worked out at once and without a query (it runs on the writer's
 * request): a client that holds more than LIGHT_GROUPS_PER_CLIENT matching topics with distinct
 * options (one check each) is heavy, and its subscriptions go to the slow lane, so it gets the
 * event late and everyone else on time.
 */
function planEvent(ctx: AppContext, broker: Broker, record: RecordModel): EventPlan | null {
  const collection = findCollection(ctx, record.collection.id) ?? record.collection;
  const current: RecordModel = collection === record.collection ? record : { ...record, collection };
  const topics = topicsOf(collection, String(record.data.id));
  const ruleOf = new Map(topics);
  const subscribers = broker.subscribers(topics.map(([t]) => t));
  if (subscribers.length === 0) return null;
  const kinds = new Map<Client, Set<string>>();
  for (const { client, topic } of subscribers) {
    let set = kinds.get(client);
    if (!set) kinds.set(client, (set = new Set()));
    set.add(`${ruleOf.get(topic.base) ?? 'list'}\u0000${topic.optionsKey}`);
  }
  const isHeavy = (c: Client) => (kinds.get(c)?.size ?? 0) > LIGHT_GROUPS_PER_CLIENT;
  return {
    record: current,
    ruleOf,
    light: subscribers.filter((s) => !isHeavy(s.client)),
    heavy: subscribers.filter((s) => isHeavy(s.client)),
  };
}

/**
 * The frames of one lane of an event. Subscribers with the same access (rule, principal, options)
 * form a group, checked and serialised once; groups that need no query go first.
 */
async function* laneDeliveries(ctx: AppContext, action: Action, plan: EventPlan, subscribers: Subscriber[], scope: CheckScope, atOnce: number): AsyncGenerator<Delivery> {
  const principals = new Map<string, Principal>();
  const principalOf = (c: Client): Principal => {
    const k = `${c.auth.kind}:${c.auth.collectionId ?? ''}:${c.auth.id}:${c.auth.tokenKey ?? ''}`;
    let p = principals.get(k);
    if (!p) principals.set(k, (p = c.auth.kind === 'guest' ? GUEST_PRINCIPAL : resolvePrincipal(ctx, c.auth)));
    return p;
  };
  const groups = new Map<string, Group>();
  for (const { client, topic } of subscribers) {
    const rule = plan.ruleOf.get(topic.base) ?? 'list';
    const principal = principalOf(client);
    const key = `${rule}\u0000${principal.key}\u0000${topic.optionsKey}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { rule, principal, topic, members: [] }));
    group.members.push({ client, topic });
  }
  const collection = plan.record.collection;
  const ordered = [...groups.values()].sort((a, b) => Number(checkFree(b, collection)) - Number(checkFree(a, collection)));
  yield* groupDeliveries(ctx, action, plan.record, ordered, scope, atOnce);
}

/**
 * Checks `groups` (`atOnce` at a time, in order) and yields each one's frames as soon as its check
 * ends, so a check that runs to its budget (a rule reading a runaway view) delays no other group's
 * copy of the event.
 */
async function* groupDeliveries(ctx: AppContext, action: Action, record: RecordModel, groups: Group[], scope: CheckScope, atOnce: number): AsyncGenerator<Delivery> {
  const check = async (group: Group): Promise<string | null> => {
    try {
      return await eventData(ctx, action, record, group.rule, group.principal, group.topic, scope);
    } catch (err) {
      console.error('[realtime] event for', record.collection.name, record.data.id, 'failed:', err);
      return null;
    }
  };
  const waiting = [...groups];
  const running = new Map<Group, Promise<{ group: Group; data: string | null }>>();
  while (waiting.length > 0 || running.size > 0) {
    while (running.size < atOnce && waiting.length > 0) {
      const group = waiting.shift()!;
      running.set(group, check(group).then((data) => ({ group, data })));
    }
    const { group, data } = await Promise.race(running.values());
    running.delete(group);
    if (data === null) continue;
    for (const m of group.members) yield { client: m.client, name: m.topic.name, data };
  }
}

/** Sends each delivery as it comes (a job of the sliced queue). */
async function* sending(broker: Broker, deliveries: AsyncIterable<Delivery>): AsyncGenerator<void> {
  for await (const d of deliveries) {
    broker.sendMessage(d.client, d.name, d.data);
    yield;
  }
}

/**
 * Wires record events to the broker through one ordered, time-sliced queue, so the writer's
 * response never waits for the fan-out and no fan-out blocks the event loop for long: every
 * event is evaluated after its commit, group by group, with the rule checks on the read pool under
 * a budget (a delete's checks see the deleted row as a pending row of its table).
 */
export function bindRecordEvents(ctx: AppContext, broker: Broker): () => void {
  const queue = new SlicedQueue();
  // the slow lane: events of clients that hold many distinct subscriptions (their own order kept;
  // fewer events wait there: each holds many subscribers, and past that those clients miss events)
  const slow = new SlicedQueue(8, 1000);
  // a flood (a bulk import) can overflow a queue: one line per second says how many were dropped
  const dropped = { count: 0, first: '', timer: undefined as NodeJS.Timeout | undefined };
  const reportDropped = () => {
    console.error(`[realtime] broadcast queue full: ${dropped.count} event(s) not sent, from the ${dropped.first} on`);
    dropped.count = 0;
    dropped.timer = undefined;
  };
  const enqueue = (into: SlicedQueue, job: AsyncIterator<unknown>, what: string) => {
    // the checks are reads for the subscribers, not for the writer whose request triggered them:
    // outside its read client (its share, its budget, its going away)
    if (runWithoutReadClient(() => into.push(job))) return;
    if (dropped.count++ === 0) dropped.first = what;
    dropped.timer ??= setTimeout(reportDropped, 1000).unref();
  };
  const broadcast = (action: Action, record: RecordModel, scope: CheckScope) => {
    const plan = planEvent(ctx, broker, record);
    if (!plan) return;
    const what = `${action} of ${record.collection.name}/${record.data.id}`;
    // an event only heavy clients get never enters the ordered lane: it cannot hold up the others
    if (plan.light.length > 0) enqueue(queue, sending(broker, laneDeliveries(ctx, action, plan, plan.light, scope, GROUP_CHECKS_AT_ONCE)), what);
    if (plan.heavy.length > 0) enqueue(slow, sending(broker, laneDeliveries(ctx, action, plan, plan.heavy, scope, 1)), `${what} (slow lane)`);
  };
  // in a cluster, every member's subscribers get the event too: the record goes to them as it was
  // committed, and each member checks and serialises it for its own subscribers
  const cluster = ctx.options.cluster;
  // (only when another member holds a realtime client: ./cluster-listeners.ts)
  const listeners = cluster && clusterListeners(cluster);
  if (listeners) {
    broker.onCount = (count) => listeners.setOwnCount(count);
    listeners.setOwnCount(broker.size);
  }
  const share = (action: Action, record: RecordModel) => {
    if (!listeners?.othersListening()) return;
    const { passwordHash: _secret, ...data } = record.data;
    cluster?.publish('records', { action, collectionId: record.collection.id, data } satisfies RemoteEvent);
  };
  const offRemote = cluster?.subscribe('records', (message) => {
    const { action, collectionId, data } = message as RemoteEvent;
    if (broker.size === 0) return;
    const collection = findCollection(ctx, collectionId);
    if (!collection) return;
    const record: RecordModel = { collection, data };
    broadcast(action, record, action === 'delete' ? { pending: pendingRowOf(record) } : {});
  });
  const offChange = onRecordChange(ctx, (change) => {
    if (change.action === 'delete') return;
    if (cluster) share(change.action, change.record);
    if (broker.size === 0) return;
    broadcast(change.action, change.record, {});
  });
  const offDeleting = onRecordDeleting(ctx, (record) => {
    if (broker.size === 0 && !cluster) return undefined;
    // after the commit the row is gone: the checks see it as a pending row of its table
    const scope: CheckScope = { pending: pendingRowOf(record) };
    return () => {
      if (cluster) share('delete', record);
      if (broker.size > 0) broadcast('delete', record, scope);
    };
  });
  return () => {
    offRemote?.();
    listeners?.close();
    if (listeners) broker.onCount = null;
    if (dropped.timer) {
      clearTimeout(dropped.timer);
      reportDropped();
    }
    queue.stop();
    slow.stop();
    offChange();
    offDeleting();
  };
}
