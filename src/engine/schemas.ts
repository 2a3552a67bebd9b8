/**
 * The form registry: every schemas/**\/*.schema.json and *.ui.json, bundled at build time, plus
 * every screens/*.json. A form's name is its path under schemas/ without the suffix
 * ("admins/login"). Adding a form = adding the two files; nothing here changes.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { parseScreen, type ScreenDefinition } from './screen';
import { localizeFile } from '../lib/i18n/file-words';
import { currentLanguage, formsCatalog, reportMissingFormWord } from '../ui/i18n';

export interface FormFiles {
  name: string;
  schema: RJSFSchema;
  uiSchema: UiSchema;
}

type JsonModule = { default: unknown };

const schemaFiles = import.meta.glob<JsonModule>('/schemas/**/*.schema.json', { eager: true });
const uiFiles = import.meta.glob<JsonModule>('/schemas/**/*.ui.json', { eager: true });
const screenFiles = import.meta.glob<JsonModule>('/screens/*.json', { eager: true });

const nameOf = (path: string, suffix: string) => path.replace(/^\/schemas\//, '').slice(0, -suffix.length);

const forms = new Map<string, FormFiles>();
const rawScreens = new Map<string, unknown>();
const namesBySchema = new WeakMap<object, string>();
for (const [path, mod] of Object.entries(schemaFiles)) {
  const name = nameOf(path, '.schema.json');
  const ui = uiFiles[`/schemas/${name}.ui.json`];
  const schema = mod.default as RJSFSchema;
  forms.set(name, { name, schema, uiSchema: (ui?.default ?? {}) as UiSchema });
  namesBySchema.set(schema, name);
}

const screens = new Map<string, ScreenDefinition>();
for (const [path, mod] of Object.entries(screenFiles)) {
  const name = path.replace(/^\/screens\//, '').replace(/\.json$/, '');
  rawScreens.set(name, mod.default);
  screens.set(name, parseScreen(name, mod.default));
}

// The files with the active language's words in place (src/lib/i18n/file-words.ts), per language.
const localizedForms = new Map<string, FormFiles>();
const localizedScreens = new Map<string, ScreenDefinition>();

function localizedForm(form: FormFiles): FormFiles {
  const catalog = formsCatalog();
  if (!catalog) return form;
  const key = `${currentLanguage()}:${form.name}`;
  let out = localizedForms.get(key);
  if (!out) {
    const schema = localizeFile(`schemas/${form.name}.schema.json`, form.schema, catalog, reportMissingFormWord);
    const uiSchema = localizeFile(`schemas/${form.name}.ui.json`, form.uiSchema, catalog, reportMissingFormWord);
    // the translated copy finds the validators compiled for the file
    namesBySchema.set(schema, form.name);
    localizedForms.set(key, (out = { name: form.name, schema, uiSchema }));
  }
  return out;
}

/** A form's schema and UI schema; throws on an unknown name so a typo fails at first render. */
export function getForm(name: string): FormFiles {
  const form = forms.get(name);
  if (!form) throw new Error(`Unknown form "${name}" (expected schemas/${name}.schema.json)`);
  return localizedForm(form);
}

/**
 * The form name of a schema object from this registry (the very object getForm returned), which is
 * how the engine finds the validators compiled for it at build time; undefined for any other
 * schema (built at run time, or a modified copy).
 */
export function formNameOf(schema: object): string | undefined {
  return namesBySchema.get(schema);
}

export function listForms(): string[] {
  return [...forms.keys()].sort();
}

export function getScreen(name: string): ScreenDefinition {
  const screen = screens.get(name);
  if (!screen) throw new Error(`Unknown screen "${name}" (expected screens/${name}.json)`);
  const catalog = formsCatalog();
  if (!catalog) return screen;
  const key = `${currentLanguage()}:${name}`;
  let out = localizedScreens.get(key);
  if (!out) {
    out = parseScreen(name, localizeFile(`screens/${name}.json`, rawScreens.get(name), catalog, reportMissingFormWord));
    localizedScreens.set(key, out);
  }
  return out;
}
