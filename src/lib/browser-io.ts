// Browser side effects of export and import: saving a JSON file, copying text, reading a file.

/**
 * Offers `blob` as a file download named `name`. The object URL is kept a while after the click:
 * the browser reads a large blob (an export) after the click returns.
 */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Saves `text` as a JSON file download named `name` (e.g. pb_schema.json). */
export function downloadJsonText(text: string, name: string): void {
  downloadBlob(new Blob([text], { type: 'application/json' }), name);
}

function copyWithTextarea(text: string): boolean {
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  const prev = document.activeElement as HTMLElement | null;
  document.body.appendChild(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  ta.remove();
  prev?.focus?.();
  return ok;
}

/** Copies text to the clipboard; resolves to whether it worked (failures are only logged). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('Clipboard API unavailable.');
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    if (copyWithTextarea(text)) return true;
    console.warn('Failed to copy to the clipboard.', err);
    return false;
  }
}

/** Reads a picked file as text. */
export function readFileText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('Failed to read the file.'));
    reader.readAsText(file);
  });
}
