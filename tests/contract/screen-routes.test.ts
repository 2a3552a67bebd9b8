// The screen files (screens/*.json) and the dashboard's route table (src/shell/screens.ts) name the
// same screens: a screen file's route is a route the table declares, and a settings page drawn from a
// screen file has the table's document title and settings-sidebar label.
import { describe, expect, it } from 'vitest';
import { SCREENS } from '../../src/shell/screens';
import { loadCatalog } from '../../scripts/gen-docs';
import { localeLanguages, readLocale } from '../../src/lib/i18n/locale-files';
import { ROOT } from '../../scripts/gen-docs';

const catalog = loadCatalog();

/** "/confirm-password-reset/{token}" → "/confirm-password-reset/:token"; "/?installer" → "/". */
const asRoutePath = (route: string) => route.replace(/\?.*$/, '').replace(/\{(\w+)\}/g, ':$1');
const entryFor = (route: string) => SCREENS.find((e) => e.paths.includes(asRoutePath(route)));

it('maps a screen file route onto a route of the table', () => {
  expect(asRoutePath('/confirm-password-reset/{token}')).toBe('/confirm-password-reset/:token');
  expect(entryFor('/?installer')?.page).toBe('entry');
  expect(entryFor('/settings/nowhere')).toBeUndefined();
});

describe.each(catalog.screens.map((s) => [s.name, s] as const))('screens/%s.json', (_name, screen) => {
  it('appears on a route the dashboard declares', () => {
    expect(entryFor(screen.route), `route "${screen.route}" is in no entry of src/shell/screens.ts`).toBeDefined();
  });

});

const settingsPages = catalog.screens.filter((s) => (s.kind ?? 'page') === 'page' && s.breadcrumb);
describe.each(settingsPages.map((s) => [s.name, s] as const))('screens/%s.json (a settings page)', (_name, screen) => {
  it('has the title and sidebar label of its route', () => {
    const entry = entryFor(screen.route);
    // the table names its words by key (locales/<lang>/ui.json); each language words both alike
    for (const lang of localeLanguages(ROOT)) {
      const ui = { ...readLocale(ROOT, lang, 'ui'), ...readLocale(ROOT, lang, 'app') };
      const forms = readLocale(ROOT, lang, 'forms');
      const fileWord = (pointer: string, source: string | undefined) => forms[`screens/${screen.name}.json#${pointer}`] ?? source;
      const last = (screen.breadcrumb?.length ?? 0) - 1;
      expect(fileWord('/title', screen.title), lang).toBe(ui[entry?.title ?? '']);
      expect(fileWord(`/breadcrumb/${last}`, screen.breadcrumb?.at(-1)), lang).toBe(ui[entry?.settingsLink?.label ?? '']);
    }
  });
});

it('finds the settings pages drawn from screen files', () => {
  expect(settingsPages.map((s) => s.name)).toEqual(expect.arrayContaining(['settings-application', 'settings-mail']));
});
