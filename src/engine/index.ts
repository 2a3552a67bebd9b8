/**
 * The schema engine's public API. Kept light: importing it never pulls rjsf or the ajv compiler
 * (SchemaForm loads rjsf only for forms that need it). The ajv helpers live in their own modules
 * for the server, tools and tests: ./ajv (strict instance), ./keywords, ./validator (runtime rjsf
 * validator), ./vite-plugin-validators (build-time validators).
 */
export { SchemaForm, preloadRjsfRenderer, type SchemaFormProps, type FormContext } from './SchemaForm';
export { getForm, listForms, getScreen, type FormFiles } from './schemas';
export { screenAction, instantiateScreen, parseExtraActions, type ScreenDefinition, type ScreenAction } from './screen';
