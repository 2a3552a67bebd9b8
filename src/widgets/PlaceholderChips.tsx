import { addInfoToast } from '../app/toasts';

/** Spec §8: 'Copied {value} to clipboard' for 2 s. */
export const COPIED_MESSAGE = (value: string) => `Copied ${value} to clipboard`;
export const COPIED_TOAST_MS = 2000;

/** Copies a text and says so; a clipboard failure is only logged (spec §8). */
export async function copyText(value: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    addInfoToast(COPIED_MESSAGE(value), COPIED_TOAST_MS);
  } catch (err) {
    console.warn('Failed to copy to the clipboard.', err);
  }
}

/**
 * The placeholders a template field understands ({APP_NAME}, {APP_URL}, {TOKEN}, {ACTION_URL}),
 * as chips that copy themselves on click. Any field shows them with `ui:options.placeholders`.
 */
export function PlaceholderChips({ values }: { values: readonly string[] }) {
  if (!values.length) return null;
  return (
    <div className="sf-placeholders">
      <span className="sf-placeholders-label">Available placeholder parameters:</span>
      {values.map((v) => (
        <button key={v} type="button" className="sf-chip" title="Copy" onClick={() => void copyText(v)}>
          {v}
        </button>
      ))}
    </div>
  );
}
