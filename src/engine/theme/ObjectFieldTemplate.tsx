import type { ObjectFieldTemplateProps, Registry, WidgetProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { Accordion } from '../../ui/Accordion';
import { errorEntries } from '../error-schema';
import { decorationWidgetProps, type DecorationCell } from '../layout';
import { ObjectLayout } from './ObjectLayout';

/** Draws a `ui:layout` decoration cell with the registered widget of that name. */
const decorationOf = (registry: Registry, id: string) => (cell: DecorationCell) => {
  const Widget = registry.widgets[cell['ui:widget']];
  if (!Widget) return null;
  return <Widget {...(decorationWidgetProps(cell, id, registry.formContext) as unknown as WidgetProps)} registry={registry} />;
};

/**
 * rjsf's object container, drawn by the shared ObjectLayout (rows from `ui:layout` or
 * `ui:options.columns`). `ui:options.collapsible` draws a nested object as an accordion titled by
 * the schema title, with a 'Has errors' marker while any of its fields shows an error.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, uiSchema, title, fieldPathId, errorSchema, registry } = props;
  const options = getUiOptions(uiSchema);
  const decoration = decorationOf(registry, fieldPathId.$id);
  const nested = fieldPathId.path.length > 0;
  if (nested && options.collapsible) {
    return (
      <Accordion title={String(options.title ?? title ?? '')} hasErrors={errorEntries(errorSchema).length > 0}>
        <ObjectLayout id={fieldPathId.$id} properties={properties} layout={options.layout} columns={options.columns} decoration={decoration} />
      </Accordion>
    );
  }
  return (
    <ObjectLayout
      id={fieldPathId.$id}
      properties={properties}
      layout={options.layout}
      columns={options.columns}
      decoration={decoration}
      nested={nested}
      title={title}
      description={options.description}
    />
  );
}
