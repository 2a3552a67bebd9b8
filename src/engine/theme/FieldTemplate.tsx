import type { FieldTemplateProps } from '@rjsf/utils';
import { errorId, getUiOptions, helpId } from '@rjsf/utils';

/**
 * One field: label with required marker, the widget, the first error under it, then the hint.
 * Objects and arrays draw their own containers, so they pass straight through.
 */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors, rawHelp, hidden, required, displayLabel, schema, uiSchema, classNames } = props;
  if (hidden) return <div hidden>{children}</div>;
  const custom = Boolean(getUiOptions(uiSchema).widget);
  if ((schema.type === 'object' || schema.type === 'array') && !custom) return children;

  const errors = (rawErrors ?? []).filter(Boolean);
  // Checkboxes and toggles carry their label beside the control.
  const showLabel = displayLabel && label && schema.type !== 'boolean';
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
      {rawHelp && !errors.length && (
        <div className="sf-help" id={helpId(id)}>
          {rawHelp}
        </div>
      )}
    </div>
  );
}
