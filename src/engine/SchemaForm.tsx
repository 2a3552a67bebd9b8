/**
 * The one form renderer: a JSON Schema + UI schema drawn by @rjsf/core through our theme and
 * widget registry. Validation runs here (not inside rjsf) so errors can be shown per field only
 * once that field was left or a submit was attempted, and so server field errors (from the shared
 * field-error store or a prop) sit under their fields until the field is edited.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { withTheme, type IChangeEvent } from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { fieldErrors, removeFieldError } from '../state/field-errors';
import { buildErrorSchema, deepEqual, errorEntries, fieldIdOf, getAt } from './error-schema';
import { serverErrorSchema } from './server-errors';
import { theme } from './theme';
import { validateData, validator } from './validator';
import './engine.css';

const ThemedForm = withTheme(theme);

export interface FormChangeState {
  isValid: boolean;
  /** Differs from `pristine` (or from the data the form was mounted with). */
  isDirty: boolean;
}

export interface SchemaFormProps<T = any> {
  schema: RJSFSchema;
  uiSchema?: UiSchema;
  formData: T;
  onChange?: (data: T, state: FormChangeState) => void;
  /** Called with valid data only (properties outside the current schema branch dropped). */
  onSubmit?: (data: T) => void;
  /** The form element's id: external buttons submit with `form={id}`; also prefixes field ids. */
  id?: string;
  disabled?: boolean;
  /** PocketBase error `data` to show under fields; defaults to the shared field-error store. */
  serverErrors?: unknown;
  /** Dot path of this form's data inside the error data, for a section bound to part of a document. */
  errorsPath?: string;
  /** The loaded copy that `isDirty` compares against. */
  pristine?: T;
  className?: string;
}

export function SchemaForm<T = any>(props: SchemaFormProps<T>) {
  const { schema, uiSchema, formData, onChange, onSubmit, id, disabled, serverErrors, errorsPath = '', pristine, className } = props;
  const idPrefix = id ?? 'root';
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submits, setSubmits] = useState(0);
  const [mounted] = useState(formData);
  const wrapper = useRef<HTMLDivElement>(null);

  const store = useSnapshot(fieldErrors);
  const fromStore = serverErrors === undefined;
  const serverData = fromStore ? store.errors : serverErrors;
  // Server errors hide once their field is edited; a new error response shows them all again.
  const [edited, setEdited] = useState<{ source: unknown; paths: ReadonlySet<string> }>({ source: serverData, paths: new Set() });
  const editedPaths = useMemo(() => (edited.source === serverData ? edited.paths : new Set<string>()), [edited, serverData]);

  const validation = useMemo(() => validateData(schema, formData, uiSchema), [schema, formData, uiSchema]);
  const server = useMemo(() => errorEntries(serverErrorSchema(serverData, errorsPath)), [serverData, errorsPath]);

  const extraErrors = useMemo(() => {
    const visible = errorEntries(validation.errorSchema).filter(([p]) => submits > 0 || touched.has(fieldIdOf(idPrefix, p)));
    const fromServer = server.filter(([p]) => !editedPaths.has(p.join('.')));
    return buildErrorSchema([...fromServer, ...visible]);
  }, [validation, server, editedPaths, submits, touched, idPrefix]);

  // After a failed submit, move focus to the first field showing an error.
  useEffect(() => {
    if (!submits) return;
    const el = wrapper.current?.querySelector<HTMLElement>('.sf-field--error input, .sf-field--error textarea, .sf-field--error select, .sf-field--error button');
    el?.focus();
  }, [submits]);

  const handleChange = (e: IChangeEvent<T>) => {
    const next = e.formData as T;
    const changed = server.map(([p]) => p).filter((p) => !deepEqual(getAt(formData, p), getAt(next, p)));
    if (changed.length) {
      setEdited({ source: serverData, paths: new Set([...editedPaths, ...changed.map((p) => p.join('.'))]) });
      if (fromStore) changed.forEach((p) => removeFieldError([errorsPath, ...p].filter(Boolean).join('.')));
    }
    onChange?.(next, {
      isValid: validateData(schema, next, uiSchema).isValid,
      isDirty: !deepEqual(next, pristine ?? mounted),
    });
  };

  const handleSubmit = (e: IChangeEvent<T>, event: FormEvent) => {
    event.preventDefault();
    setSubmits((n) => n + 1);
    if (!validateData(schema, e.formData, uiSchema).isValid) return;
    onSubmit?.(e.formData as T);
  };

  return (
    <div ref={wrapper} className={['sf', className].filter(Boolean).join(' ')}>
      <ThemedForm
        id={id}
        idPrefix={idPrefix}
        schema={schema}
        uiSchema={uiSchema}
        formData={formData}
        validator={validator}
        disabled={disabled}
        noValidate
        noHtml5Validate
        showErrorList={false}
        omitExtraData
        extraErrors={extraErrors}
        onChange={handleChange}
        onBlur={(fieldId) => setTouched((t) => (t.has(fieldId) ? t : new Set(t).add(fieldId)))}
        onSubmit={handleSubmit}
      />
    </div>
  );
}
