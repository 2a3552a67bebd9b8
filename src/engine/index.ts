/**
 * The schema engine's public API. Kept light: importing it never pulls rjsf or the ajv compiler
 * (SchemaForm loads rjsf only for forms that need it). The ajv helpers live in their own modules
 * for the server, tools and tests: ./ajv (strict instance), ./keywords, ./validator (runtime rjsf
 * validator), ./vite-plugin-validators (build-time validators).
 */
export { SchemaForm, preloadRjsfRenderer, type SchemaFormProps, type FormChangeState, type FormContext } from './SchemaForm';
export { getForm, listForms, getScreen, listScreens, formNameOf, type FormFiles } from './schemas';
export { parseScreen, screenAction, screenForms, instantiateScreen, isTemplateScreen, type ScreenDefinition, type ScreenSection, type ScreenAction } from './screen';
export type { ValidationResult } from './validation';
export { serverErrorSchema, FALLBACK_SERVER_MESSAGE } from './server-errors';
export { MESSAGES_KEYWORD, SAME_AS_KEYWORD } from '../lib/schema/keyword-names';
