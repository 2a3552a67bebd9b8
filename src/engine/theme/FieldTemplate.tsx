import type { FieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { Field } from './Field';

/**
 * One field: label with required marker, the widget, the first error under it, then the hint.
 * Objects and arrays draw their own containers, so they pass straight through.
 */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors, rawHelp, hidden, required, displayLabel, schema, uiSchema, classNames } = props;
  if (hidden) return <div hidden>{children}</div>;
  const custom = Boolean(getUiOptions(uiSchema).widget);
  if ((schema.type === 'object' || schema.type === 'array') && !custom) return children;

  // Checkboxes and toggles carry their label beside the control.
  const showLabel = Boolean(displayLabel && label && schema.type !== 'boolean');
  return (
    <Field id={id} label={label} showLabel={showLabel} required={required} errors={(rawErrors ?? []).filter(Boolean)} help={rawHelp} classNames={classNames}>
      {children}
    </Field>
  );
}
