// Record drafts: the unsaved form data kept in local storage per
// collection and record, offered back by the 'Restore draft' banner. Passwords and files picked for
// upload are never stored.
import { isUploadToken } from '../../../widgets/record/context';

export type FormData_ = Record<string, unknown>;

const SECRET_KEYS = ['password', 'passwordConfirm', 'changePassword'];

export const draftKey = (collectionId: string, recordId: string | null | undefined) => `record_draft_${collectionId}_${recordId ?? ''}`;

/** The part of the form data a draft keeps. */
export function draftOf(data: FormData_): FormData_ {
  const out: FormData_ = {};
  for (const [k, v] of Object.entries(data)) {
    if (SECRET_KEYS.includes(k) || v === undefined) continue;
    if (Array.isArray(v)) out[k] = v.filter((x) => !isUploadToken(x));
    else out[k] = isUploadToken(v) ? '' : v;
  }
  return out;
}

export function readDraft(key: string): FormData_ | null {
  try {
    const raw = localStorage.getItem(key);
    const v = raw ? (JSON.parse(raw) as unknown) : null;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as FormData_) : null;
  } catch {
    return null;
  }
}

export function saveDraft(key: string, data: FormData_): void {
  try {
    localStorage.setItem(key, JSON.stringify(draftOf(data)));
  } catch {
    /* storage full or unavailable: no draft */
  }
}

export function deleteDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    /* unavailable */
  }
}
