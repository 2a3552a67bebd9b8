// Small helpers shared by the public confirmation pages.
import { getTokenPayload } from 'pocketbase';
import { useState, type FormEvent, type ReactNode } from 'react';
import { handleError } from '../../api/client';
import { clearFieldErrors, useFieldError } from '../../engine/field-errors';

/** The collection a record token was issued for (its collectionId claim), or ''. */
export function tokenCollectionId(token: string): string {
  const payload = getTokenPayload(token) as { collectionId?: unknown };
  return typeof payload.collectionId === 'string' ? payload.collectionId : '';
}

/**
 * The submit of a confirmation form: one request at a time, field errors cleared first, `done`
 * once `run` succeeds (errors go to the usual handler: field errors or a toast).
 */
export function useConfirmSubmit(run: () => Promise<unknown>) {
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    clearFieldErrors();
    try {
      await run();
      setDone(true);
    } catch (err) {
      handleError(err);
    } finally {
      setSubmitting(false);
    }
  };
  return { submitting, done, submit };
}

export function PublicCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="public-page">
      <div className="public-card">
        <h1 className="public-title">{title}</h1>
        {children}
      </div>
    </div>
  );
}

export function Alert({ type, children }: { type: 'success' | 'danger' | 'info' | 'warning'; children: ReactNode }) {
  return (
    <div className={`alert alert-${type}`} role={type === 'danger' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function PasswordField({
  name,
  label,
  value,
  onChange,
  autoFocus,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  autoFocus?: boolean;
}) {
  const error = useFieldError(name);
  const id = `field-${name}`;
  return (
    <div className={`form-field${error ? ' error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="password"
        required
        autoComplete="new-password"
        autoFocus={autoFocus}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <div className="field-error" id={`${id}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}
