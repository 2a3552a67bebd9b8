// Toasts: typed, auto-dismissed, a new toast with
// an identical message replaces the old one, each has a close button.
import { proxy, useSnapshot } from 'valtio';
import { t } from '../ui/i18n';

export type ToastType = 'info' | 'success' | 'warning' | 'error';
export type Toast = { id: number; type: ToastType; message: string; duration: number };

export const TOAST_DURATIONS: Record<ToastType, number> = {
  info: 4000,
  success: 3000,
  error: 4500,
  warning: 4500,
};

export const toastsState = proxy<{ items: Toast[] }>({ items: [] });

const timers = new Map<number, ReturnType<typeof setTimeout>>();
let nextId = 1;

function removeToast(id: number): void {
  const t = timers.get(id);
  if (t) clearTimeout(t);
  timers.delete(id);
  const idx = toastsState.items.findIndex((x) => x.id === id);
  if (idx >= 0) toastsState.items.splice(idx, 1);
}

function removeToastsWithMessage(message: string): void {
  for (const t of toastsState.items.filter((x) => x.message === message)) removeToast(t.id);
}

export function removeAllToasts(): void {
  for (const t of [...toastsState.items]) removeToast(t.id);
}

/** Adds a toast and returns its id. `durationMs` defaults to the type's duration. */
export function addToast(type: ToastType, message: string, durationMs?: number): number {
  removeToastsWithMessage(message);
  const duration = durationMs ?? TOAST_DURATIONS[type];
  const id = nextId++;
  toastsState.items.push({ id, type, message, duration });
  if (duration > 0) timers.set(id, setTimeout(() => removeToast(id), duration));
  return id;
}

export const addInfoToast = (message: string, durationMs?: number): number => addToast('info', message, durationMs);
export const addSuccessToast = (message: string, durationMs?: number): number => addToast('success', message, durationMs);
export const addWarningToast = (message: string, durationMs?: number): number => addToast('warning', message, durationMs);
export const addErrorToast = (message: string, durationMs?: number): number => addToast('error', message, durationMs);

const ICONS: Record<ToastType, string> = { info: 'i', success: '✓', warning: '!', error: '!' };

export function Toasts() {
  const snap = useSnapshot(toastsState);
  return (
    <div className="toasts-wrapper" aria-live="polite">
      {snap.items.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.type}`}
          role={toast.type === 'error' || toast.type === 'warning' ? 'alert' : 'status'}
          data-testid="toast"
        >
          <span className="toast-icon" aria-hidden="true">
            {ICONS[toast.type]}
          </span>
          <span className="toast-message">{toast.message}</span>
          <button type="button" className="toast-close" aria-label={t('common.close')} onClick={() => removeToast(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
