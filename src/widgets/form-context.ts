import type { ReactNode } from 'react';
import type { StatusLabelProps } from '../ui/StatusLabel';

/**
 * What the page around a form shares with its widgets (rjsf's `formContext`; the lite renderer
 * passes the same object as `registry.formContext`).
 */
export interface FormContext {
  /** The state of each named check (e.g. the screen runner's S3 connection check); absent or null: nothing to show. */
  checks?: Readonly<Record<string, StatusLabelProps | null | undefined>>;
  /**
   * What the page has to say where a `note` decoration names it (e.g. Settings › Application's
   * hint about an untrusted proxy header, from the server's health answer); absent or null: nothing.
   */
  notes?: Readonly<Record<string, ReactNode | null | undefined>>;
  /**
   * Where rule widgets keep the text 'Set Admins only' replaced (by widget id), so that unlocking
   * restores it even after the widget was unmounted (e.g. a tab switch). Without it a widget
   * remembers only while it is mounted.
   */
  ruleMemory?: RuleMemory;
  /**
   * Sets top-level values of the form's document at once (the renderers provide it): a widget that
   * also fills a sibling, e.g. the password generator filling the confirmation.
   */
  patch?: (values: Record<string, unknown>) => void;
}

interface RuleMemory {
  get: (key: string) => string | undefined;
  set: (key: string, text: string) => void;
}
