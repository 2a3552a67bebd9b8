// Display helpers for the shell's hand-written lists.

function pad(n: number, len = 2): string {
  return String(n).padStart(len, '0');
}

/** Parses the API's 'YYYY-MM-DD HH:MM:SS.sssZ' (UTC) date text. */
export function parseApiDate(value: string): Date | null {
  if (!value) return null;
  const iso = value.includes('T') ? value : value.replace(' ', 'T');
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : iso + 'Z');
  return Number.isNaN(d.getTime()) ? null : d;
}

/** 'yyyy-MM-dd HH:mm:ss' in local time, 24-hour. */
export function formatDateTime(value: string): string {
  const d = parseApiDate(value);
  if (!d) return value || '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
