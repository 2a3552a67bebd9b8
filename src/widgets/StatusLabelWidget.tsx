import type { WidgetProps } from '@rjsf/utils';
import type { FormContext } from './form-context';
import { StatusLabel } from '../ui/StatusLabel';

/**
 * `"ui:widget": "statusLabel"`: the status of a named check the page runs (`"ui:options":
 * {"check": "s3"}`), read from the form context (the screen runner fills `checks`). Draws nothing
 * while the check has nothing to say. Usually placed as a `ui:layout` decoration cell
 * (`{"ui:widget": "statusLabel", "ui:options": {"check": "s3"}}`), needing no schema property.
 */
export function StatusLabelWidget({ options, registry }: Pick<WidgetProps, 'options' | 'registry'>) {
  const check = typeof options?.check === 'string' ? options.check : '';
  const state = (registry?.formContext as FormContext | undefined)?.checks?.[check];
  return state ? <StatusLabel {...state} /> : null;
}
