import type { FieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { COPIED_MESSAGE, COPIED_TOAST_MS, PlaceholderChips } from '../../ui/PlaceholderChips';
import { engineHost } from '../host';
import { Field } from './Field';

/** Boolean widgets that carry their own label beside the control. */
const INLINE_BOOLEAN_WIDGETS = new Set(['toggle', 'checkbox', 'secretGenerator', undefined]);

/**
 * One field: label with required marker, the widget, the first error under it, then the hint
 * (and `ui:options.placeholders` as copy-on-click chips). Objects and arrays draw their own
 * containers, so they pass straight through.
 */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors, rawHelp, hidden, required, displayLabel, schema, uiSchema, classNames } = props;
  if (hidden) return <div hidden>{children}</div>;
  const options = getUiOptions(uiSchema);
  const widget = typeof options.widget === 'string' ? options.widget : undefined;
  if ((schema.type === 'object' || schema.type === 'array') && !widget) return children;

  // Checkboxes and toggles carry their label beside the control; a boolean drawn as a select does not.
  const inline = (schema.type === 'boolean' && INLINE_BOOLEAN_WIDGETS.has(widget)) || widget === 'secretGenerator';
  const showLabel = Boolean(displayLabel && label && !inline);
  const placeholders = Array.isArray(options.placeholders) ? (options.placeholders as string[]) : [];
  return (
    <Field id={id} label={label} showLabel={showLabel} required={required} errors={(rawErrors ?? []).filter(Boolean)} help={rawHelp} classNames={classNames}>
      {children}
      {placeholders.length > 0 && <PlaceholderChips values={placeholders} onCopied={(v) => engineHost().notify('info', COPIED_MESSAGE(v), COPIED_TOAST_MS)} />}
    </Field>
  );
}
