// The admin file token for protected files: fetched with pb.files.getToken(), cached
// in local storage and refreshed when expired or within 10 s of expiry. Failures are only logged.
import { getTokenPayload } from 'pocketbase';
import { pb } from './client';
import { fileTokenValid } from '../lib/records/format';

const FILE_TOKEN_STORAGE_KEY = '@adminFileToken';

type Cached = { token: string; exp: number };

let memory: Cached | null = null;
let pending: Promise<string> | null = null;

function readStored(): Cached | null {
  try {
    const raw = localStorage.getItem(FILE_TOKEN_STORAGE_KEY);
    const v = raw ? (JSON.parse(raw) as Cached) : null;
    return v && typeof v.token === 'string' && typeof v.exp === 'number' ? v : null;
  } catch {
    return null;
  }
}

/** A usable admin file token, or '' when it cannot be had. */
export async function getFileToken(): Promise<string> {
  const now = Date.now();
  if (fileTokenValid(memory, now)) return memory!.token;
  const stored = readStored();
  if (fileTokenValid(stored, now)) {
    memory = stored;
    return stored!.token;
  }
  if (pending) return pending;
  pending = (async () => {
    try {
      const token = await pb.files.getToken({ requestKey: null });
      const exp = Number(getTokenPayload(token)?.exp) || Math.floor(Date.now() / 1000) + 60;
      memory = { token, exp };
      try {
        localStorage.setItem(FILE_TOKEN_STORAGE_KEY, JSON.stringify(memory));
      } catch {
        /* storage unavailable */
      }
      return token;
    } catch (err) {
      console.warn('Failed to get a file token.', err);
      return '';
    } finally {
      pending = null;
    }
  })();
  return pending;
}
