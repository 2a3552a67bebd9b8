/**
 * The one form API: a JSON Schema + UI schema drawn in the dashboard's look, with errors shown per
 * field once it was left or a submit was attempted, and server field errors under their fields.
 *
 * Two renderers sit behind it, with the same markup and behaviour (form-state.ts holds the logic
 * both use). Flat forms from schemas/ (sign-in, installer, password reset) are drawn by LiteForm
 * with validators compiled at build time; anything else (conditionals, arrays, custom widgets, or
 * a schema built at run time) by @rjsf/core, loaded on demand. Callers do not choose.
 */
import { lazy, Suspense, useMemo } from 'react';
import type { SchemaFormProps } from './form-state';
import { LiteForm } from './LiteForm';
import { litePlan } from './lite-support';
import { liteValidatorFor } from './lite-validators';
import './engine.css';

export type { SchemaFormProps } from './form-state';
export type { FormContext } from '../widgets/form-context';

const RjsfForm = lazy(() => import('./RjsfForm'));

/** Starts loading the rjsf renderer ahead of need (e.g. when a page with a complex form opens). */
export function preloadRjsfRenderer(): void {
  void import('./RjsfForm');
}

export function SchemaForm<T = any>(props: SchemaFormProps<T>) {
  const { schema, uiSchema, className } = props;
  const lite = useMemo(() => {
    const plan = litePlan(schema, uiSchema);
    const validate = plan ? liteValidatorFor(schema) : undefined;
    return plan && validate ? { plan, validate } : null;
  }, [schema, uiSchema]);

  if (lite) return <LiteForm {...props} plan={lite.plan} validate={lite.validate} />;
  return (
    <Suspense fallback={<div className={['sf', className].filter(Boolean).join(' ')} aria-busy="true" />}>
      <RjsfForm {...(props as SchemaFormProps)} />
    </Suspense>
  );
}
