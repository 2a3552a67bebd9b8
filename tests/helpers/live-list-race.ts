// Set-up shared by the live list race tests (tests/e2e/live-list-race-*.test.ts): the real server
// with a 'notes' collection, Chromium signed in with an SSE gate in the page (events
// recorded, and held on demand), requests held with page.route, and the list's settled state.
import { beforeAll, expect } from 'vitest';
import type { Page, Request, Route } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { label, signIn } from './browser';
import { dashboardSession } from './dashboard-session';

const ADMIN = { email: 'race@example.com', password: 'race-pass-12345' };
/** expect.poll with room for a loaded machine. */
export const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });

let url: string;
export let api: PocketBase; // another client: the same admin, from outside the page
export let page: Page;
let cid: string;

// Runs in the page before its scripts: every SSE event listener (but PB_CONNECT) goes through a
// gate that records what reached the app and, while held, queues the events in arrival order.
function sseGate() {
  type Entry = { action: string; id: string };
  const w = window as unknown as { __sse: { held: boolean; arrived: Entry[]; seen: Entry[]; queue: Array<() => void> } };
  w.__sse = { held: false, arrived: [], seen: [], queue: [] };
  const add = EventSource.prototype.addEventListener;
  const remove = EventSource.prototype.removeEventListener;
  const gates = new WeakMap<object, EventListener>();
  EventSource.prototype.addEventListener = function (this: EventSource, type: string, listener: unknown, opts?: unknown) {
    if (type === 'PB_CONNECT' || typeof listener !== 'function') return add.call(this, type, listener as EventListener, opts as AddEventListenerOptions);
    let gate = gates.get(listener);
    if (!gate) {
      gate = function (this: EventSource, e: Event) {
        let data: { action?: string; record?: { id?: string } } = {};
        try {
          data = JSON.parse((e as MessageEvent).data);
        } catch {
          /* not a record event */
        }
        const entry = { action: String(data.action), id: String(data.record?.id) };
        w.__sse.arrived.push(entry);
        const deliver = () => {
          w.__sse.seen.push(entry);
          (listener as EventListener).call(this, e);
        };
        if (w.__sse.held) w.__sse.queue.push(deliver);
        else deliver();
      };
      gates.set(listener, gate);
    }
    return add.call(this, type, gate, opts as AddEventListenerOptions);
  } as typeof EventSource.prototype.addEventListener;
  EventSource.prototype.removeEventListener = function (this: EventSource, type: string, listener: unknown, opts?: unknown) {
    return remove.call(this, type, (gates.get(listener as object) ?? listener) as EventListener, opts as EventListenerOptions);
  } as typeof EventSource.prototype.removeEventListener;
}

export const sse = {
  hold: () => page.evaluate(() => void ((window as unknown as { __sse: { held: boolean } }).__sse.held = true)),
  release: () =>
    page.evaluate(() => {
      const s = (window as unknown as { __sse: { held: boolean; queue: Array<() => void> } }).__sse;
      s.held = false;
      for (const deliver of s.queue.splice(0)) deliver();
    }),
  /** Waits until the event of `action` on `id` reached the page ('arrived', maybe held) or the app ('seen'). */
  wait: (stage: 'arrived' | 'seen', action: string, id: string) =>
    page.waitForFunction(
      ({ stage, action, id }) => (window as unknown as Record<string, Record<string, Array<{ action: string; id: string }>>>).__sse[stage].some((e) => e.action === action && e.id === id),
      { stage, action, id },
      { timeout: 20_000 },
    ),
};


/**
 * Starts the server and the page (the SSE gate in it) before the file's tests, stops them after
 * (tests/helpers/dashboard-session.ts); the page signs in once the list's requests are watched.
 */
export function withRacePage() {
  const session = dashboardSession({
    admin: ADMIN,
    viewport: { width: 1400, height: 900 },
    initScript: sseGate,
    signIn: false,
    seed: async (client) => {
      cid = (await client.collections.create({ name: 'notes', type: 'base', schema: [{ name: 'title', type: 'text' }] })).id;
    },
  });
  beforeAll(async () => {
    ({ url, api, page } = session);
    page.on('request', (r) => {
      if (isList(r)) listRequests.at = Date.now();
    });
    page.on('requestfinished', (r) => {
      if (isList(r)) listRequests.at = Date.now();
    });
    await signIn(page, url, ADMIN);
  });
}

// ---- the list's requests ----
const pathOf = (r: Request) => new URL(r.url()).pathname;
const isList = (r: Request) => r.method() === 'GET' && pathOf(r) === `/api/collections/${cid}/records`;
export const isPage = (r: Request) => isList(r) && new URL(r.url()).searchParams.get('perPage') === '40';
export const isCount = (r: Request) => isList(r) && new URL(r.url()).searchParams.get('fields') === 'id';
const listRequests = { at: 0 };

/** Waits until the list has asked nothing for 1.6 s (its recount comes 1 s after a change). */
async function quiet() {
  await poll(() => Date.now() - listRequests.at > 1600).toBe(true);
}

type Hold = { taken: Promise<void>; answer: Promise<unknown>; release(): void; done(): Promise<void> };

/**
 * Intercepts the next request `match` picks: the server reads it at once and its answer reaches the
 * page on release(), or (`readLater`) the request itself waits for release(). `answer` is what the
 * server answered, before the page has it.
 */
export async function holdNext(match: (r: Request) => boolean, opts: { readLater?: boolean } = {}): Promise<Hold> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let take!: () => void;
  const taken = new Promise<void>((r) => (take = r));
  let answered!: (v: unknown) => void;
  const answer = new Promise<unknown>((r) => (answered = r));
  let used = false;
  const handler = async (route: Route) => {
    if (used || !match(route.request())) return route.fallback();
    used = true;
    take();
    if (opts.readLater) {
      await released;
      return route.continue();
    }
    const response = await route.fetch();
    answered(await response.json().catch(() => null));
    await released;
    return route.fulfill({ response });
  };
  await page.route('**/api/collections/**', handler);
  return { taken, answer, release, done: () => page.unroute('**/api/collections/**', handler) };
}

// ---- the page ----
export const footer = () => page.locator('.records-footer');
export const notice = () => page.locator('.records-live-notice');
export const row = (id: string) => page.locator(`tr.rl-row[data-id="${id}"]`);
const liveRows = () => page.locator('table.records-table tbody tr.rl-row:not(.row-deleted)');
const panel = () => page.locator('.record-editor-panel');
export const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text }).first();
const filterOf = (tag: string) => `title ~ '${tag}'`;

async function serverCount(tag: string) {
  return (await api.collection('notes').getList(1, 1, { filter: filterOf(tag) })).totalItems;
}

/** Seeds `n` records titled `tag …` and opens the list filtered to them, once it is settled. */
export async function openList(tag: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= n; i++) ids.push((await api.collection('notes').create({ title: `${tag} seed ${i}` })).id);
  // a record outside the filter: its changes must not count
  await api.collection('notes').create({ title: `other ${tag.split('').reverse().join('')}` });
  await page.goto('about:blank');
  await page.goto(`${url}/_/#/collections?collectionId=${cid}&filter=${encodeURIComponent(filterOf(tag))}`);
  await poll(() => footer().textContent()).toBe(`Total found: ${n}`);
  await quiet();
  return ids;
}

/**
 * After the forced order played out: 'Total found' is the server's count for the filter from now
 * on (sampled through the recount), the rows plus the announced records make that count, and the
 * notice announces `announced` records.
 */
export async function expectSettled(tag: string, announced: number) {
  const n = await serverCount(tag);
  await page.waitForTimeout(150); // the notice and total are drawn at most every 100 ms
  const shown = new Set<string>();
  const until = Date.now() + 1800;
  while (Date.now() < until) {
    shown.add((await footer().textContent()) ?? '');
    await page.waitForTimeout(50);
  }
  expect([...shown]).toEqual([`Total found: ${n}`]);
  if (announced === 0) expect(await notice().count()).toBe(0);
  else expect(await notice().textContent()).toContain(`${announced} new record${announced === 1 ? '' : 's'} created since the list was loaded.`);
  expect((await liveRows().count()) + announced).toBe(n);
}

export async function createInEditor(title: string) {
  await page.getByRole('button', { name: 'New record' }).first().click();
  await panel().getByText('New notes record').waitFor();
  await panel().locator('[data-field="record-editor-form_title"]').getByLabel(label('title')).fill(title);
  await panel().getByRole('button', { name: 'Create' }).click();
}

export async function deleteInEditor(id: string) {
  await row(id).click();
  await panel().getByText('Edit notes record').waitFor();
  await panel().getByRole('button', { name: 'More record options' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByText('Do you really want to delete the selected record?').waitFor();
  await page.getByRole('button', { name: 'Yes' }).click();
}

export const isCreate = (r: Request) => r.method() === 'POST' && pathOf(r) === `/api/collections/${cid}/records`;
export const isDelete = (r: Request) => r.method() === 'DELETE' && pathOf(r).startsWith(`/api/collections/${cid}/records/`);
export const isGetOne = (r: Request) => r.method() === 'GET' && pathOf(r).startsWith(`/api/collections/${cid}/records/`);
