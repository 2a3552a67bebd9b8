/** The schema engine's public API. */
export { SchemaForm, type SchemaFormProps, type FormChangeState } from './SchemaForm';
export { getForm, listForms, getScreen, listScreens, type FormFiles } from './schemas';
export { parseScreen, screenAction, screenForms, type ScreenDefinition, type ScreenSection, type ScreenAction } from './screen';
export { validateData, validator, type ValidationResult } from './validator';
export { serverErrorSchema, FALLBACK_SERVER_MESSAGE } from './server-errors';
export { CUSTOM_KEYWORDS, CUSTOM_KEYWORD_NAMES, addCustomKeywords } from './keywords';
export { createStrictAjv } from './ajv';
