// schemas/settings/index.json is what the server reads to store, return and validate the settings;
// the screens that edit /api/settings must draw the same sections (schema and bind), so the forms
// and the server can never disagree about which schema judges which part of the document.
import { expect, it } from 'vitest';
import { loadCatalog } from '../../scripts/gen-docs';
import { loadProviders } from '../../server/services/providers';
import { settingsSections } from '../../server/services/settings-index';
import { defaultSettings } from '../../server/services/settings-defaults';

const sections = settingsSections();
const indexed = new Set(sections.map((s) => `${s.schema}@${s.bind}`));

it('every section a settings screen draws is in the index, with the same bind', () => {
  const drawn = loadCatalog()
    .screens.filter((screen) => screen.load === '/api/settings')
    .flatMap((screen) => screen.sections.filter((s) => !s.schema.includes('{')).map((s) => ({ screen: screen.name, id: `${s.schema}@${s.bind ?? ''}` })));
  expect(drawn.length).toBeGreaterThan(5);
  expect(drawn.filter((d) => !indexed.has(d.id))).toEqual([]);
});

it('the index and the provider files give every stored key', () => {
  const keys = new Set([...sections.flatMap((s) => s.keys), ...loadProviders().map((p) => p.key)]);
  expect(Object.keys(defaultSettings()).filter((k) => !keys.has(k))).toEqual([]);
  expect([...keys].filter((k) => !(k in defaultSettings()))).toEqual([]);
});
