import { useMemo, useState } from 'react';
import type { FormContext } from '../../engine';

/**
 * What 'Set Admins only' replaced, per rule widget, kept by the editor so that unlocking restores
 * it even after a tab switch unmounted the widget; handed to the forms as their context.
 */
export function useRuleMemory(): FormContext {
  const [remembered, setRemembered] = useState<Readonly<Record<string, string>>>({});
  return useMemo<FormContext>(
    () => ({
      ruleMemory: {
        get: (key) => remembered[key],
        set: (key, text) => setRemembered((cur) => ({ ...cur, [key]: text })),
      },
    }),
    [remembered],
  );
}
