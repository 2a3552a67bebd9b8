/**
 * The screen runner's state: load what the screen definition names, give
 * each section its part of the loaded data, compare with the loaded copy (Save only when different
 * and valid), Cancel restores it, the main action sends the sections (masked secrets stripped) and
 * the loaded copy is refreshed from the answer, all through the engine's host (./host). Server field
 * errors go to the field-error store,
 * where each section reads the part it binds. A screen `check` (the S3 status) runs after loading
 * and after saving. Nothing here knows a particular screen.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { clearFieldErrors } from './field-errors';
import { withoutRedacted } from '../lib/redacted';
import { applyDefaults } from './defaults';
import { engineHost } from './host';
import { getAt } from './error-schema';
import { validateForm } from './form-validate';
import { getForm, getScreen, type FormFiles } from './schemas';
import { declaredNames, type ScreenAction, type ScreenDefinition, type ScreenSection } from './screen';
import { deepEqual, isObject } from '../lib/json';
import { t } from '../ui/i18n';

type Json = Record<string, unknown>;

export type CheckStatus = { state: 'idle' | 'checking' | 'ok' | 'failed'; message?: string };

interface ScreenSectionState {
  section: ScreenSection;
  form: FormFiles;
  /** The form element id (also the prefix of its field ids). */
  id: string;
  bind: string;
}

export interface UseScreenOptions {
  /** Data to start from when the screen loads nothing (a popup form). */
  initial?: Json;
  /** Load only while true (a closed panel loads nothing). */
  active?: boolean;
  onLoaded?: (doc: Json) => void;
  /** After the main action succeeded: the response and the request body. */
  onDone?: (response: unknown, body: Json) => void;
}

export interface ScreenState {
  screen: ScreenDefinition;
  sections: ScreenSectionState[];
  loading: boolean;
  busy: boolean;
  data: Json;
  pristine: Json;
  /** Changes whenever the forms must start over (after load, save and cancel). */
  formKey: number;
  dirty: boolean;
  valid: boolean;
  /** The action that sends the forms (the one with a method and path). */
  main?: ScreenAction;
  check?: CheckStatus;
  sectionData(s: ScreenSectionState): unknown;
  change(s: ScreenSectionState, value: unknown): void;
  submit(): Promise<void>;
  reset(): void;
  reload(): Promise<void>;
  /** Whether an action shows in the current state (its `show`). */
  visible(action: ScreenAction): boolean;
}

function setAt(doc: Json, bind: string, value: unknown): Json {
  const path = bind.split('.').filter(Boolean);
  if (!path.length) return (isObject(value) ? value : {}) as Json;
  const [head, ...rest] = path;
  return { ...doc, [head]: rest.length ? setAt(isObject(doc[head]) ? (doc[head] as Json) : {}, rest.join('.'), value) : value };
}

/** A cleared input holds undefined, which JSON drops: send "" where the loaded copy had a string. */
function restoreCleared(value: unknown, loaded: unknown): unknown {
  if (value === undefined) return typeof loaded === 'string' ? '' : undefined;
  if (!isObject(value)) return value;
  const out: Json = {};
  const before = isObject(loaded) ? loaded : {};
  for (const key of new Set([...Object.keys(value), ...Object.keys(before)])) {
    if (!(key in value) && !(key in before)) continue;
    const v = restoreCleared(value[key], before[key]);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function truthyAt(doc: Json, path?: string): boolean {
  return path ? Boolean(getAt(doc, path.split('.'))) : true;
}

function errorMessage(err: unknown): string {
  const r = (err as { response?: { message?: unknown } })?.response;
  if (r && typeof r.message === 'string' && r.message) return r.message;
  return err instanceof Error ? err.message : String(err);
}

/** A screen by file name, or an instantiated template screen (keep that object stable across renders). */
export function useScreen(name: string | ScreenDefinition, options: UseScreenOptions = {}): ScreenState {
  const screen = typeof name === 'string' ? getScreen(name) : name;
  const { initial, active = true } = options;
  const host = engineHost();
  const callbacks = useRef(options);
  useEffect(() => {
    callbacks.current = options;
  });

  const sections = useMemo<ScreenSectionState[]>(
    () =>
      screen.sections.map((section, i) => ({
        section,
        form: getForm(section.schema),
        id: `${screen.name}-${i}`,
        bind: section.bind ?? '',
      })),
    [screen],
  );

  /** The loaded (or initial) document with each section's schema defaults applied. */
  const normalize = useCallback(
    (doc: Json) => sections.reduce((acc, s) => setAt(acc, s.bind, applyDefaults(s.form.schema, getAt(acc, s.bind.split('.').filter(Boolean)) ?? {})), doc),
    [sections],
  );

  const [loading, setLoading] = useState(Boolean(screen.load));
  const [busy, setBusy] = useState(false);
  const [doc, setDoc] = useState<{ data: Json; pristine: Json; key: number }>(() => {
    const start = normalize(initial ?? {});
    return { data: start, pristine: start, key: 0 };
  });
  const [check, setCheck] = useState<CheckStatus | undefined>(screen.check ? { state: 'idle' } : undefined);
  const checkTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(checkTimer.current);
    };
  }, []);

  const startOver = useCallback((next: Json) => setDoc((d) => ({ data: next, pristine: next, key: d.key + 1 })), []);

  /** Runs the screen's check now; resolves to whether it passed (true when there is none or it is off). */
  const runCheck = useCallback(
    async (saved: Json): Promise<boolean> => {
      const c = screen.check;
      if (!c) return true;
      if (!truthyAt(saved, c.when)) {
        host.cancel(`${screen.name}_check`);
        setCheck({ state: 'idle' });
        return true;
      }
      setCheck({ state: 'checking' });
      const key = `${screen.name}_check`;
      let timedOut = false;
      const timer = c.timeout ? setTimeout(() => ((timedOut = true), host.cancel(key)), c.timeout) : undefined;
      try {
        await host.send(c.path, { method: c.method, body: c.body, requestKey: key });
        if (mounted.current) setCheck({ state: 'ok' });
        return true;
      } catch (err) {
        if ((err as { isAbort?: boolean })?.isAbort && !timedOut) return true;
        const message = timedOut ? (c.timeoutMessage ?? 'Timeout.') : errorMessage(err);
        if (mounted.current) setCheck({ state: 'failed', message });
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    [host, screen],
  );

  const scheduleCheck = useCallback(
    (saved: Json) => {
      if (!screen.check) return;
      clearTimeout(checkTimer.current);
      checkTimer.current = setTimeout(() => void runCheck(saved), screen.check.delay ?? 0);
    },
    [screen, runCheck],
  );

  const reload = useCallback(async () => {
    if (!screen.load) return;
    setLoading(true);
    try {
      const loaded = (await host.send(screen.load, { method: 'GET', requestKey: `${screen.name}_load` })) as Json;
      const next = normalize(isObject(loaded) ? loaded : {});
      clearFieldErrors();
      startOver(next);
      setLoading(false);
      callbacks.current.onLoaded?.(loaded);
      scheduleCheck(next);
    } catch (err) {
      if ((err as { isAbort?: boolean })?.isAbort) return;
      setLoading(false);
      host.handleError(err);
    }
  }, [host, screen, normalize, startOver, scheduleCheck]);

  useEffect(() => {
    if (!active) return;
    if (screen.load) {
      void reload();
      return () => {
        host.cancel(`${screen.name}_load`);
      };
    }
    // A popup without a load starts from its initial data each time it opens.
    clearFieldErrors();
    startOver(normalize(callbacks.current.initial ?? {}));
    return undefined;
  }, [host, active, screen, reload, startOver, normalize]);

  const dirty = useMemo(
    () => sections.some((s) => !deepEqual(getAt(doc.data, s.bind.split('.').filter(Boolean)), getAt(doc.pristine, s.bind.split('.').filter(Boolean)))),
    [sections, doc],
  );
  const valid = useMemo(
    () => sections.every((s) => validateForm(s.form.schema, s.form.uiSchema, getAt(doc.data, s.bind.split('.').filter(Boolean)) ?? {}).isValid),
    [sections, doc.data],
  );

  const main = screen.actions?.find((a) => a.method && a.path);

  /** The request body: each section's declared properties, cleared inputs as "", masked secrets dropped. */
  const body = useCallback(() => {
    let out: Json = {};
    for (const s of sections) {
      const path = s.bind.split('.').filter(Boolean);
      const value = getAt(doc.data, path);
      const names = declaredNames(s.form.schema);
      const restored = restoreCleared(value ?? {}, getAt(doc.pristine, path));
      const picked: Json = {};
      if (isObject(restored)) for (const [k, v] of Object.entries(restored)) if (names.has(k)) picked[k] = v;
      const clean = withoutRedacted(picked);
      out = path.length ? setAt(out, s.bind, { ...((getAt(out, path) as Json) ?? {}), ...clean }) : { ...out, ...clean };
    }
    return { ...out, ...(main?.body ?? {}) };
  }, [sections, doc, main]);

  const submit = useCallback(async () => {
    if (!main?.path || busy || !valid || (screen.load && !dirty)) return;
    setBusy(true);
    clearFieldErrors();
    const payload = body();
    const key = `${screen.name}_${main.id}`;
    let timedOut = false;
    const timer = main.timeout ? setTimeout(() => ((timedOut = true), host.cancel(key)), main.timeout) : undefined;
    try {
      const response = await host.send(main.path, { method: main.method, body: payload, requestKey: key });
      clearTimeout(timer);
      if (screen.load) {
        const next = normalize(isObject(response) ? (response as Json) : {});
        startOver(next);
        const passed = screen.check ? await runCheck(next) : true;
        if (!passed && screen.check?.savedButFailed) host.notify('warning', screen.check.savedButFailed);
        else if (main.success) host.notify('success', main.success);
      } else if (main.success) {
        host.notify('success', main.success);
      }
      callbacks.current.onDone?.(response, payload);
    } catch (err) {
      if (timedOut) host.notify('error', main.timeoutMessage ?? t('common.timeout'));
      else host.handleError(err);
    } finally {
      clearTimeout(timer);
      if (mounted.current) setBusy(false);
    }
  }, [host, main, busy, valid, dirty, screen, body, normalize, startOver, runCheck]);

  const reset = useCallback(() => {
    clearFieldErrors();
    setDoc((d) => ({ data: d.pristine, pristine: d.pristine, key: d.key + 1 }));
  }, []);

  const visible = useCallback((a: ScreenAction) => !a.show || (a.show === 'dirty' ? dirty : !dirty), [dirty]);

  return {
    screen,
    sections,
    loading,
    busy,
    data: doc.data,
    pristine: doc.pristine,
    formKey: doc.key,
    dirty,
    valid,
    main,
    check,
    sectionData: (s) => getAt(doc.data, s.bind.split('.').filter(Boolean)) ?? {},
    change: (s, value) => setDoc((d) => ({ ...d, data: setAt(d.data, s.bind, value) })),
    submit,
    reset,
    reload,
    visible,
  };
}
