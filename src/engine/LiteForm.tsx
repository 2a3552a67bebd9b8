/**
 * The lightweight renderer: draws a flat form (see lite-support.ts) from the same schema and UI
 * schema files, with the same widgets, field markup and layout as the rjsf theme, validated by
 * functions compiled at build time. It is what the sign-in, installer and password-reset pages
 * use, so they never download rjsf or the ajv compiler.
 *
 * The form stays controlled by its page (formData in, onChange out) like the rjsf renderer, and the
 * error logic is the shared useFormState hook, so both paths behave the same for the user.
 */
import type { ComponentType, FormEvent } from 'react';
import type { ErrorSchema, WidgetProps } from '@rjsf/utils';
import { CheckboxWidget } from '../widgets/CheckboxWidget';
import { CsvWidget } from '../widgets/CsvWidget';
import { SecretWidget } from '../widgets/SecretWidget';
import { TextareaWidget } from '../widgets/TextareaWidget';
import { StatusLabelWidget } from '../widgets/StatusLabelWidget';
import { ToggleWidget } from '../widgets/ToggleWidget';
import { fieldIdOf } from './error-schema';
import { useFormState, type SchemaFormProps } from './form-state';
import type { LiteDecoration, LiteField, LitePlan, LiteWidget } from './lite-support';
import { BaseInputTemplate } from './theme/BaseInputTemplate';
import { Field } from './theme/Field';
import { decorationWidgetProps, type DecorationCell } from './layout';
import { ObjectLayout } from './theme/ObjectLayout';
import type { Validate } from './validation';

/** rjsf's text-like widgets are BaseInputTemplate with an input type; the others are ours. */
const inputOf = (type?: string): ComponentType<WidgetProps> =>
  function Input(props: WidgetProps) {
    return <BaseInputTemplate {...(props as any)} type={type} />;
  };

const WIDGETS: Record<LiteWidget, ComponentType<WidgetProps>> = {
  text: inputOf(),
  email: inputOf('email'),
  password: inputOf('password'),
  url: inputOf('url'),
  textarea: TextareaWidget,
  secret: SecretWidget,
  csv: CsvWidget,
  checkbox: CheckboxWidget,
  toggle: ToggleWidget,
};

/** Decoration cells of `ui:layout` (widgets without a property). */
const DECORATIONS: Record<LiteDecoration, ComponentType<WidgetProps>> = {
  statusLabel: StatusLabelWidget,
};

const noop = () => {};

function errorsAt(errors: ErrorSchema, name: string): string[] {
  const node = (errors as Record<string, { __errors?: unknown[] } | undefined>)[name];
  return (node?.__errors ?? []).filter((m): m is string => typeof m === 'string' && m !== '');
}

export interface LiteFormProps<T> extends SchemaFormProps<T> {
  plan: LitePlan;
  validate: Validate;
}

export function LiteForm<T = any>({ plan, validate, ...props }: LiteFormProps<T>) {
  const { formData, id, disabled, className } = props;
  const state = useFormState(props, validate);
  const formContext = state.formContext;
  // the part of rjsf's registry our widgets read
  const registry = { formContext };
  const data = (formData && typeof formData === 'object' ? formData : {}) as Record<string, unknown>;

  const fieldOf = (f: LiteField) => {
    const fieldId = fieldIdOf(state.idPrefix, [f.name]);
    const errors = errorsAt(state.shownErrors, f.name);
    const { widget: _w, placeholder = '', title, ...options } = f.options;
    const label = String(title ?? f.schema.title ?? f.name);
    const Widget = WIDGETS[f.widget];
    // The subset of rjsf's WidgetProps our widgets read, with the values rjsf would pass.
    const widgetProps = {
      id: fieldId,
      name: f.name,
      label,
      // rjsf hides a widget's own label only for `ui:label: false`, which lite forms do not use
      hideLabel: false,
      value: data[f.name],
      schema: f.schema,
      options,
      required: f.required,
      disabled: Boolean(disabled),
      readonly: false,
      autofocus: Boolean(options.autofocus),
      placeholder: String(placeholder),
      rawErrors: errors,
      onChange: (value: unknown) => state.change({ ...data, [f.name]: value } as T),
      onBlur: (blurred: string) => state.blur(blurred),
      onFocus: noop,
      registry,
    } as unknown as WidgetProps;
    const classNames = ['rjsf-field', `rjsf-field-${f.type}`, errors.length ? 'rjsf-field-error' : '', options.classNames ?? '']
      .filter(Boolean)
      .join(' ');
    return (
      <Field
        id={fieldId}
        label={label}
        showLabel={f.type !== 'boolean'}
        required={f.required}
        errors={errors}
        help={options.help as string | undefined}
        classNames={classNames}
      >
        <Widget {...widgetProps} />
      </Field>
    );
  };

  const decoration = (cell: DecorationCell) => {
    const Widget = DECORATIONS[cell['ui:widget'] as LiteDecoration];
    return Widget ? <Widget {...(decorationWidgetProps(cell, state.idPrefix, formContext) as unknown as WidgetProps)} /> : null;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // a submit bubbling up from a form nested in a widget is not ours (as in rjsf)
    if (event.target !== event.currentTarget) return;
    // only the schema's properties, as rjsf's omitExtraData does
    const picked: Record<string, unknown> = {};
    for (const f of plan.fields) if (f.name in data) picked[f.name] = data[f.name];
    state.submit(picked as T);
  };

  return (
    <div ref={state.wrapper} className={['sf', className].filter(Boolean).join(' ')}>
      <form className="rjsf" id={id} noValidate onSubmit={onSubmit}>
        <ObjectLayout
          id={state.idPrefix}
          properties={plan.fields.map((f) => ({ name: f.name, content: fieldOf(f) }))}
          layout={plan.options.layout}
          columns={plan.options.columns}
          decoration={decoration}
        />
      </form>
    </div>
  );
}
