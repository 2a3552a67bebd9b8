import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { ObjectLayout } from './ObjectLayout';

/** rjsf's object container, drawn by the shared ObjectLayout (rows from `ui:layout` or `ui:options.columns`). */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, uiSchema, title, fieldPathId } = props;
  const options = getUiOptions(uiSchema);
  return (
    <ObjectLayout
      id={fieldPathId.$id}
      properties={properties}
      layout={options.layout}
      columns={options.columns}
      nested={fieldPathId.path.length > 0}
      title={title}
      description={options.description}
    />
  );
}
