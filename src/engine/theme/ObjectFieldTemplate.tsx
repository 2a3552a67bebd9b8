import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { Accordion } from '../../widgets/Accordion';
import { errorEntries } from '../error-schema';
import { ObjectLayout } from './ObjectLayout';

/**
 * rjsf's object container, drawn by the shared ObjectLayout (rows from `ui:layout` or
 * `ui:options.columns`). `ui:options.collapsible` draws a nested object as an accordion titled by
 * the schema title, with a 'Has errors' marker while any of its fields shows an error.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, uiSchema, title, fieldPathId, errorSchema } = props;
  const options = getUiOptions(uiSchema);
  const nested = fieldPathId.path.length > 0;
  if (nested && options.collapsible) {
    return (
      <Accordion title={String(options.title ?? title ?? '')} hasErrors={errorEntries(errorSchema).length > 0}>
        <ObjectLayout id={fieldPathId.$id} properties={properties} layout={options.layout} columns={options.columns} />
      </Accordion>
    );
  }
  return (
    <ObjectLayout
      id={fieldPathId.$id}
      properties={properties}
      layout={options.layout}
      columns={options.columns}
      nested={nested}
      title={title}
      description={options.description}
    />
  );
}
