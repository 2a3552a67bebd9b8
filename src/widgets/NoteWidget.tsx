import type { WidgetProps } from '@rjsf/utils';
import type { FormContext } from './form-context';

/**
 * `"ui:widget": "note"`: what the page has to say at this place of the form (`"ui:options":
 * {"note": name}`), read from the form context's `notes` (ScreenView's `notes` prop), e.g. a hint
 * built from a server answer no schema can hold. A `ui:layout` decoration cell, with no property;
 * draws nothing while the page has nothing to say.
 */
export function NoteWidget({ options, registry }: Pick<WidgetProps, 'options' | 'registry'>) {
  const name = typeof options?.note === 'string' ? options.note : '';
  const note = (registry?.formContext as FormContext | undefined)?.notes?.[name];
  return note ? <div className="sf-note">{note}</div> : null;
}
