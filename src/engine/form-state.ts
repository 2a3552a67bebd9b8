/**
 * What a form shows, whichever renderer draws it: validation runs here (not inside rjsf) so errors
 * show per field only once that field was left or a submit was attempted, and server field errors
 * (from the shared field-error store or a prop) sit under their fields until the field is edited.
 * Both renderers (LiteForm and RjsfForm) use this hook, so they behave the same.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ErrorSchema, RJSFSchema, UiSchema } from '@rjsf/utils';
import { fieldErrors, removeFieldError } from './field-errors';
import { buildErrorSchema, errorEntries, fieldIdOf, getAt, widgetPath } from './error-schema';
import { deepEqual } from '../lib/json';
import { serverErrorSchema } from './server-errors';
import type { Validate } from './validation';
import type { FormContext } from '../widgets/form-context';

interface FormChangeState {
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
  /** Shared with the widgets (e.g. check states for the `statusLabel` widget). */
  formContext?: FormContext;
}

export interface FormState<T> {
  idPrefix: string;
  /** The wrapper element (focus moves to the first field in error after a failed submit). */
  wrapper: React.RefObject<HTMLDivElement | null>;
  /** What to show under fields: server errors not yet edited away, and validation errors of touched fields. */
  shownErrors: ErrorSchema;
  /** A field's value changed: `next` is the whole document. */
  change: (next: T) => void;
  /** A field was left (`fieldId` is its element id). */
  blur: (fieldId: string) => void;
  /** A submit was attempted with this data (extra properties already dropped). */
  submit: (data: T) => void;
  /** The page's formContext plus the renderer's own `patch`. */
  formContext: FormContext;
}

export function useFormState<T>(props: SchemaFormProps<T>, validate: Validate): FormState<T> {
  const { formData, onChange, onSubmit, id, serverErrors, errorsPath = '', pristine, uiSchema } = props;
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

  const validation = useMemo(() => validate(formData), [validate, formData]);
  // errors of the items of a list drawn as one input (csv) go under that input
  const underWidgets = useMemo(() => (entries: [string[], string[]][]) => entries.map(([p, m]): [string[], string[]] => [widgetPath(p, uiSchema), m]), [uiSchema]);
  const server = useMemo(() => underWidgets(errorEntries(serverErrorSchema(serverData, errorsPath))), [underWidgets, serverData, errorsPath]);

  const shownErrors = useMemo(() => {
    const visible = underWidgets(errorEntries(validation.errorSchema)).filter(([p]) => submits > 0 || touched.has(fieldIdOf(idPrefix, p)));
    const fromServer = server.filter(([p]) => !editedPaths.has(p.join('.')));
    return buildErrorSchema([...fromServer, ...visible]);
  }, [validation, server, editedPaths, submits, touched, idPrefix, underWidgets]);

  // After a failed submit, move focus to the first field showing an error.
  useEffect(() => {
    if (!submits) return;
    const el = wrapper.current?.querySelector<HTMLElement>('.sf-field--error input, .sf-field--error textarea, .sf-field--error select, .sf-field--error button');
    el?.focus();
  }, [submits]);

  const change = (next: T) => {
    const changed = server.map(([p]) => p).filter((p) => !deepEqual(getAt(formData, p), getAt(next, p)));
    if (changed.length) {
      setEdited({ source: serverData, paths: new Set([...editedPaths, ...changed.map((p) => p.join('.'))]) });
      if (fromStore) changed.forEach((p) => removeFieldError([errorsPath, ...p].filter(Boolean).join('.')));
    }
    onChange?.(next, { isValid: validate(next).isValid, isDirty: !deepEqual(next, pristine ?? mounted) });
  };

  const blur = (fieldId: string) => setTouched((t) => (t.has(fieldId) ? t : new Set(t).add(fieldId)));

  const submit = (data: T) => {
    setSubmits((n) => n + 1);
    if (!validate(data).isValid) return;
    onSubmit?.(data);
  };

  const formContext: FormContext = {
    ...props.formContext,
    patch: (values) => change({ ...((formData ?? {}) as object), ...values } as T),
  };

  return { idPrefix, wrapper, shownErrors, change, blur, submit, formContext };
}
