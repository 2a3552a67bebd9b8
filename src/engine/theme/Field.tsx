import type { ReactNode } from 'react';
import { errorId, helpId } from '../../lib/dom-ids';

export interface FieldProps {
  id: string;
  label?: string;
  /** Draw the label above the control (booleans carry theirs beside it). */
  showLabel: boolean;
  required?: boolean;
  /** Messages to show; the first one is drawn. */
  errors: readonly string[];
  help?: ReactNode;
  /** Extra classes (rjsf's `rjsf-field …` and `ui:classNames`). */
  classNames?: string;
  children: ReactNode;
}

/**
 * One field as both renderers draw it (rjsf through FieldTemplate, the lite renderer directly):
 * label with required marker, the widget, the first error under it, then the hint.
 */
export function Field({ id, label, showLabel, required, errors, help, classNames, children }: FieldProps) {
  const className = ['sf-field', errors.length ? 'sf-field--error' : '', classNames ?? ''].filter(Boolean).join(' ');
  return (
    <div className={className} data-field={id}>
      {showLabel && (
        <label className="sf-label" htmlFor={id}>
          {label}
          {required && <span className="sf-required" aria-hidden="true"> *</span>}
        </label>
      )}
      {children}
      {errors.length > 0 && (
        <div className="sf-error" id={errorId(id)}>
          {errors[0]}
        </div>
      )}
      {/* the hint steps aside while an error explains the field */}
      {help && !errors.length && (
        <div className="sf-help" id={helpId(id)}>
          {help}
        </div>
      )}
    </div>
  );
}
