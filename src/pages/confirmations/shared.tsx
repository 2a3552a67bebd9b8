// Small helpers shared by the public confirmation pages.
import { getTokenPayload } from 'pocketbase';
import type { ReactNode } from 'react';
import { useFieldError } from '../../state/field-errors';

/** The collection a record token was issued for (its collectionId claim), or ''. */
export function tokenCollectionId(token: string): string {
  const payload = getTokenPayload(token) as { collectionId?: unknown };
  return typeof payload.collectionId === 'string' ? payload.collectionId : '';
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
