// Field errors from the last failed request ("response data fields go into the
// field-error store"). Keys mirror the API's `data` object: { email: { code, message } } or nested
// ({ schema: { 0: { name: { ... } } } }), read with dotted paths ('schema.0.name').
import { proxy, useSnapshot } from 'valtio';
import { serverWords, t } from '../ui/i18n';

export type FieldErrorsState = { errors: Record<string, unknown> };

export const fieldErrors = proxy<FieldErrorsState>({ errors: {} });

export function setFieldErrors(data: Record<string, unknown>): void {
  fieldErrors.errors = data && typeof data === 'object' ? { ...data } : {};
}

export function clearFieldErrors(): void {
  fieldErrors.errors = {};
}

/** Removes the error at a dotted path (e.g. when the user edits that field). */
export function removeFieldError(path: string): void {
  const parts = path.split('.');
  const last = parts.pop();
  if (last === undefined) return;
  let node: unknown = fieldErrors.errors;
  for (const part of parts) {
    if (!node || typeof node !== 'object') return;
    node = (node as Record<string, unknown>)[part];
  }
  if (node && typeof node === 'object' && last in (node as object)) {
    delete (node as Record<string, unknown>)[last];
  }
}

function lookup(source: unknown, path: string): unknown {
  let node: unknown = source;
  for (const part of path.split('.')) {
    if (node === null || node === undefined || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * The message of the error at a dotted path, 'Invalid value' when an error exists without a
 * message, undefined when there is none. Pass `source` (e.g. a valtio snapshot's `errors`) to
 * read from it instead of the live store.
 */
function getFieldError(path: string, source: Record<string, unknown> = fieldErrors.errors): string | undefined {
  const err = lookup(source, path);
  if (err === undefined || err === null || err === false || err === '') return undefined;
  if (typeof err === 'string') return err;
  if (typeof err === 'object') {
    const { message, code } = err as { message?: unknown; code?: unknown };
    // shown in the dashboard's language through its code
    if (typeof message === 'string' && message !== '') return serverWords(message, typeof code === 'string' ? code : undefined);
  }
  return t('form.invalidValue');
}

/** React hook: re-renders when the store changes. */
export function useFieldError(path: string): string | undefined {
  const snap = useSnapshot(fieldErrors);
  return getFieldError(path, snap.errors as Record<string, unknown>);
}
