/**
 * rjsf's id and input-prop conventions, without importing @rjsf/utils at run time: the widgets and
 * templates here are drawn both by rjsf and by the engine's lite renderer (which the sign-in page
 * uses and which must not download rjsf). Same results as @rjsf/utils' functions of the same names.
 *
 * Pure module: no React, no Node APIs.
 */
import type { InputPropsType, RJSFSchema, UIOptionsType } from '@rjsf/utils';

const idOf = (id: string, suffix: string) => `${id}__${suffix}`;

export const errorId = (id: string) => idOf(id, 'error');
const descriptionId = (id: string) => idOf(id, 'description');
export const helpId = (id: string) => idOf(id, 'help');
const examplesId = (id: string) => idOf(id, 'examples');

/** The `aria-describedby` of a widget: its error, description and help (and examples) elements. */
export function ariaDescribedByIds(id: string, includeExamples = false): string {
  return `${errorId(id)} ${descriptionId(id)} ${helpId(id)}${includeExamples ? ` ${examplesId(id)}` : ''}`;
}

function decimalSeparator(): string {
  const locales = typeof navigator !== 'undefined' ? navigator.languages : undefined;
  if (locales) {
    try {
      return new Intl.NumberFormat(locales).formatToParts(1.1).find((p) => p.type === 'decimal')?.value || '.';
    } catch {
      // fall through
    }
  }
  return '.';
}

/** The `<input>` attributes a schema implies: type, step/min/max for numbers, autocomplete. */
export function getInputProps(schema: RJSFSchema, defaultType?: string, options: UIOptionsType = {}, autoDefaultStepAny = true): InputPropsType {
  const inputProps: InputPropsType = { type: defaultType || 'text' };
  if (schema.multipleOf) inputProps.step = schema.multipleOf;
  if (schema.minimum || schema.minimum === 0) inputProps.min = schema.minimum;
  if (schema.maximum || schema.maximum === 0) inputProps.max = schema.maximum;
  if (options.inputType) {
    inputProps.type = options.inputType;
  } else if (!defaultType) {
    if (schema.type === 'number') {
      if (decimalSeparator() === '.') {
        inputProps.type = 'number';
        if (autoDefaultStepAny && inputProps.step === undefined) inputProps.step = 'any';
      } else {
        inputProps.type = 'text';
      }
    } else if (schema.type === 'integer') {
      inputProps.type = 'number';
      if (inputProps.step === undefined) inputProps.step = 1;
    }
  }
  if (['date', 'datetime-local', 'time', 'week', 'month'].includes(inputProps.type)) {
    if (schema.formatMinimum !== undefined) inputProps.min = schema.formatMinimum as string;
    if (schema.formatMaximum !== undefined) inputProps.max = schema.formatMaximum as string;
  }
  if (options.autocomplete) inputProps.autoComplete = options.autocomplete;
  if (options.autocapitalize) inputProps.autoCapitalize = options.autocapitalize;
  if (options.accept) inputProps.accept = options.accept as string;
  return inputProps;
}
