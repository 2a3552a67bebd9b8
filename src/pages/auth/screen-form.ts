/** The auth pages each show one screen with one form and one submit action. */
import { getForm, getScreen, screenAction, type FormFiles, type ScreenAction, type ScreenDefinition } from '../../engine';

export interface ScreenForm extends FormFiles {
  screen: ScreenDefinition;
  submit: ScreenAction;
}

export function screenForm(name: string): ScreenForm {
  const screen = getScreen(name);
  return { ...getForm(screen.sections[0].schema), screen, submit: screenAction(screen, 'submit') };
}

/** Reads a query parameter from the hash query first, then the real query string. */
export function queryParam(hashQuery: Record<string, string>, key: string): string | undefined {
  if (hashQuery[key] !== undefined) return hashQuery[key];
  if (typeof window === 'undefined') return undefined;
  return new URLSearchParams(window.location.search).get(key) ?? undefined;
}
