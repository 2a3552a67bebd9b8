// Replays 0.22.12's API test scenarios (apis/*_test.go, their ExpectedEvents) against a server whose
// hooks folder notes every hook as it fires (./hooks-events-project.ts), and checks the events
// each fires: names and counts (those Outpost fires, server/hooks/hook-names.ts FIRED, plus
// onBeforeApiError/onAfterApiError on an error answer, which 0.22's test harness adds), and the
// order 0.22's code fixes for each chain given.
import { expect } from 'vitest';
import { FIRED } from '../../server/hooks/hook-names';
import type { http } from './server';

export interface Scenario<Table extends string = string> {
  /** 0.22's test function and scenario name (apis/*_test.go). */
  area: string;
  name: string;
  method: string;
  url: string;
  body?: unknown;
  raw?: string;
  token?: string;
  status: number;
  /** 0.22's ExpectedEvents, named as there. */
  events: Record<string, number>;
  /** Events 0.22's code runs one after the other (each chain in order; 0.22's names). */
  order?: string[][];
  /** The hook whose handler returns an error (0.22's BeforeTestFunc of the "... error response" scenarios). */
  fail?: string;
  /** Events fired after the answer (0.22's Delay): wait for them. */
  background?: boolean;
  /** Fixture rows the scenario changed, put back after it. */
  restore?: Table[];
  /** Asked right before the request (an OAuth2 code). */
  prepare?: () => Promise<Pick<Scenario, 'body' | 'token'>>;
}

/** A chain of events fired once each, in this order. */
export const chain = (...names: string[]): Pick<Scenario, 'events' | 'order'> => ({
  events: Object.fromEntries(names.map((n) => [n, 1])),
  order: [names],
});

/** 0.22's Go name of a hook → its JS name. */
export const jsName = (goName: string) => goName[0].toLowerCase() + goName.slice(1);

/** What the scenario must fire here: 0.22's events (plus the api error pair on an error answer), those Outpost fires. */
export function expectedEvents(s: Scenario): Map<string, number> {
  const events: Record<string, number> = { ...s.events };
  if (s.status >= 400) {
    events.OnBeforeApiError ??= 1;
    events.OnAfterApiError ??= 1;
  }
  return new Map(Object.entries(events).map(([name, n]) => [jsName(name), n] as const).filter(([name]) => FIRED.has(name)));
}

export const counts = (names: readonly string[]) => {
  const out = new Map<string, number>();
  for (const n of names) out.set(n, (out.get(n) ?? 0) + 1);
  return out;
};

/** Whether `names` holds `sequence` in that order (other events may come between). */
export function holdsInOrder(names: readonly string[], sequence: readonly string[]): boolean {
  let at = 0;
  for (const name of names) if (at < sequence.length && name === sequence[at]) at++;
  return at === sequence.length;
}

type Call = (method: string, path: string, opts?: Parameters<typeof http>[3]) => ReturnType<typeof http>;

/** The events project's routes on a server (`call` sends a request to it). */
export function eventsClient(call: Call) {
  const recorded = async (): Promise<string[]> => (await call('GET', '/__events')).body as string[];

  /** Clears the events, then sends the request with `header` naming `hook`. */
  async function act(header: string, hook: string, method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
    expect((await call('DELETE', '/__events')).status).toBe(204);
    return call(method, url, { ...opts, headers: { [header]: hook } });
  }

  const probe = async () => (await call('GET', '/__events/probe')).body;

  /** Waits until `name` was recorded (a background event). */
  async function waitFor(name: string): Promise<void> {
    for (let i = 0; i < 100 && !(await recorded()).includes(name); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await recorded()).toContain(name);
  }

  /** Writes `rows` of `table` back as they were (raw SQL: no hook fires). */
  async function restoreRows(table: string, rows: unknown): Promise<void> {
    const res = await call('POST', '/__events/restore', { body: { table, rows } });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
  }

  /** Sends the scenario's request; returns its status and the events it fired. */
  async function replay(s: Scenario): Promise<{ status: number; body: unknown; events: string[] }> {
    const extra = s.prepare ? await s.prepare() : {};
    const token = extra.token ?? s.token;
    const body = extra.body ?? s.body;
    expect((await call('DELETE', '/__events')).status).toBe(204);
    const headers: Record<string, string> = s.fail ? { 'X-Fail-Hook': jsName(s.fail) } : {};
    if (s.raw !== undefined) headers['Content-Type'] = 'application/json';
    const res = await call(s.method, s.url, { token, headers, ...(s.raw !== undefined ? { raw: s.raw } : body !== undefined ? { body } : {}) });
    let events = await recorded();
    if (s.background) {
      const total = [...expectedEvents(s).values()].reduce((a, b) => a + b, 0);
      for (let i = 0; i < 100 && events.length < total; i++) {
        await new Promise((r) => setTimeout(r, 50));
        events = await recorded();
      }
      // and nothing more after a while
      await new Promise((r) => setTimeout(r, 300));
      events = await recorded();
    }
    return { status: res.status, body: res.body, events };
  }

  /** Replays the scenario and checks its status, its events' counts and their order. */
  async function check(s: Scenario): Promise<void> {
    const { status, body, events } = await replay(s);
    expect(status, JSON.stringify(body)).toBe(s.status);
    expect(counts(events)).toEqual(expectedEvents(s));
    for (const sequence of s.order ?? []) {
      const fired = sequence.map(jsName).filter((n) => FIRED.has(n));
      expect(holdsInOrder(events, fired), `${fired.join(' → ')} in ${events.join(', ')}`).toBe(true);
    }
  }

  return { recorded, act, probe, waitFor, restoreRows, replay, check };
}
