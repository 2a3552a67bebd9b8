/**
 * The full renderer: @rjsf/core through our theme and widget registry, for every form the lite
 * renderer cannot draw (conditionals, arrays, custom widgets…). Loaded on demand by SchemaForm, so
 * pages that only show simple forms never download rjsf.
 */
import { useMemo, type FormEvent } from 'react';
import { withTheme, type IChangeEvent } from '@rjsf/core';
import { useFormState, type SchemaFormProps } from './form-state';
import { interpretedValidatorFor, precompiledValidatorFor } from './rjsf-validators';
import { theme } from './theme';
import { validateWith } from './validation';

const ThemedForm = withTheme(theme);

export default function RjsfForm<T = any>(props: SchemaFormProps<T>) {
  const { schema, uiSchema, formData, id, disabled, className } = props;
  // Forms from schemas/ were compiled at build time; a schema built at run time is interpreted (no eval).
  const validator = precompiledValidatorFor(schema) ?? interpretedValidatorFor(schema);
  const validate = useMemo(() => (data: unknown) => validateWith(validator, schema, data, uiSchema), [validator, schema, uiSchema]);
  const state = useFormState(props, validate);

  return (
    <div ref={state.wrapper} className={['sf', className].filter(Boolean).join(' ')}>
      <ThemedForm
        id={id}
        idPrefix={state.idPrefix}
        schema={schema}
        uiSchema={uiSchema}
        formData={formData}
        validator={validator}
        formContext={state.formContext}
        disabled={disabled}
        noValidate
        noHtml5Validate
        showErrorList={false}
        omitExtraData
        extraErrors={state.shownErrors}
        onChange={(e: IChangeEvent<T>) => state.change(e.formData as T)}
        onBlur={state.blur}
        onSubmit={(e: IChangeEvent<T>, event: FormEvent) => {
          event.preventDefault();
          state.submit(e.formData as T);
        }}
      />
    </div>
  );
}
