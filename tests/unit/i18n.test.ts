// The translation core (src/lib/i18n) and the dashboard's language store (src/ui/i18n.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { interpolate, lookup, placeholdersOf } from '../../src/lib/i18n/catalog';
import { localizeFile, wordsOf } from '../../src/lib/i18n/file-words';
import { currentLanguage, fieldErrorWords, installLanguage, serverWords, setLanguage, t } from '../../src/ui/i18n';
import { getForm, getScreen } from '../../src/engine';
import { DEFAULT_WORDS } from '../../src/lib/schema/schema-words';
import { formatInstant, setDateLanguage } from '../../src/lib/date-display';

describe('catalog', () => {
  it('fills placeholders, numbers for the language', () => {
    expect(interpolate('{n} of {total}', { n: 3, total: 12345 }, 'en')).toBe('3 of 12,345');
    expect(interpolate('{n} von {total}', { n: 3, total: 12345 }, 'de')).toBe('3 von 12.345');
    expect(interpolate('Hello {name}', {}, 'en')).toBe('Hello {name}');
    expect(placeholdersOf('{b} {a} {b}')).toEqual(['a', 'b']);
  });

  it('picks the plural variant by the language rule', () => {
    const c = { 'rows_one': '{count} row', 'rows_other': '{count} rows' };
    expect(lookup(c, 'rows', { count: 1 }, 'en')).toBe('{count} row');
    expect(lookup(c, 'rows', { count: 2 }, 'en')).toBe('{count} rows');
    expect(lookup(c, 'rows', { count: 0 }, 'en')).toBe('{count} rows');
  });
});

describe('file words', () => {
  const schema = {
    title: 'Form',
    description: 'maintainers only',
    properties: {
      title: { type: 'string', title: 'Title', default: 'x', 'x-messages': { required: 'Needed.' } },
      mode: { oneOf: [{ const: 'a', title: 'Auto' }] },
    },
  };

  it('are titles, messages and option titles, never names, defaults or the root description', () => {
    expect(wordsOf('schemas/f.schema.json', schema)).toEqual([
      { key: 'schemas/f.schema.json#/title', text: 'Form' },
      { key: 'schemas/f.schema.json#/properties/title/title', text: 'Title' },
      { key: 'schemas/f.schema.json#/properties/title/x-messages/required', text: 'Needed.' },
      { key: 'schemas/f.schema.json#/properties/mode/oneOf/0/title', text: 'Auto' },
    ]);
    expect(wordsOf('schemas/f.ui.json', { a: { 'ui:help': 'Help', 'ui:widget': 'toggle', 'ui:enumNames': ['One'] } }).map((w) => w.text)).toEqual(['Help', 'One']);
    expect(wordsOf('screens/s.json', { title: 'T', route: '/x', actions: [{ id: 'a', label: 'Go', set: { title: 'data' } }] }).map((w) => w.text)).toEqual(['T', 'Go']);
  });

  it('are put in place by key; a word marked null or missing keeps the source', () => {
    const missing: string[] = [];
    const out = localizeFile('schemas/f.schema.json', schema, { 'schemas/f.schema.json#/title': 'Formular', 'schemas/f.schema.json#/properties/title/title': null }, (k) => missing.push(k));
    expect(out.title).toBe('Formular');
    expect(out.properties.title.title).toBe('Title');
    expect(out.properties.title.default).toBe('x');
    expect(missing).toEqual(['schemas/f.schema.json#/properties/title/x-messages/required', 'schemas/f.schema.json#/properties/mode/oneOf/0/title']);
    expect(schema.title).toBe('Form');
  });
});

describe('language store', () => {
  afterEach(() => setLanguage('en'));

  it('shows the active language, falls back to English, reports a missing key', async () => {
    installLanguage('xx', { 'nav.logs': 'Protokolle', 'menu.logout': null }, { 'screens/login.json#/title': 'Anmelden!' });
    await setLanguage('xx');
    expect(currentLanguage()).toBe('xx');
    expect(t('nav.logs')).toBe('Protokolle');
    expect(t('menu.logout')).toBe('Logout');
    expect(t('no.such.key')).toBe('no.such.key');
    const missing = (globalThis as { window?: { __outpostMissingWords?: string[] } }).window?.__outpostMissingWords;
    if (missing) expect(missing).toContain('xx:no.such.key');
    // the engine's files come translated
    expect(getScreen('login').title).toBe('Anmelden!');
    expect(getForm('admins/login').schema).not.toBe(undefined);
    await setLanguage('en');
    expect(getScreen('login').title).not.toBe('Anmelden!');
  });
});

describe('dates for the language', () => {
  afterEach(() => setDateLanguage(null));

  it('keeps 0.22\'s text in English and writes German dates as German does', () => {
    const at = Date.UTC(2026, 10, 28, 14, 5, 9, 42);
    expect(formatInstant(at, 'utc')).toBe('2026-11-28 14:05:09');
    setDateLanguage('de');
    expect(formatInstant(at, 'utc')).toBe('28.11.2026, 14:05:09');
    expect(formatInstant(at, 'utc', { ms: true })).toBe('28.11.2026, 14:05:09,042');
    expect(formatInstant(at, 'utc', { seconds: false })).toBe('28.11.2026, 14:05');
  });
});

describe('server messages by code', () => {
  afterEach(() => setLanguage('en'));

  it('shows a 0.22 message in the language through its code and the values in its English words', async () => {
    expect(serverWords('The length must be between 10 and 72.', 'validation_length_out_of_range')).toBe('The length must be between 10 and 72.');
    await setLanguage('de');
    expect(serverWords('The length must be between 10 and 72.', 'validation_length_out_of_range')).toBe('Die Länge muss zwischen 10 und 72 liegen.');
    expect(serverWords('Cannot be blank.', 'validation_required')).toBe('Darf nicht leer sein.');
    expect(serverWords('Failed to create record.')).toBe('Der Datensatz konnte nicht erstellt werden.');
    // a value may hold a line break, or be empty ('admin' + '' for one admin)
    expect(serverWords('Failed to send the test email. Raw error: \ndial tcp: refused\nretry')).toBe('Die Test-E-Mail konnte nicht gesendet werden. Ursprünglicher Fehler: \ndial tcp: refused\nretry');
    expect(serverWords('The role is given to 1 admin: give them another role first.')).toBe('Die Rolle ist 1 Admin zugewiesen: Geben Sie ihnen zuerst eine andere Rolle.');
    expect(serverWords('Must be a valid date.', 'validation_invalid_date')).toBe('Muss ein gültiges Datum sein.');
    // words no template knows stay the server's
    expect(serverWords('Something new.', 'validation_required')).toBe('Something new.');
    expect(serverWords('Unheard of.')).toBe('Unheard of.');
  });

  it("words the import's own row checks (src/lib's English schema words) as the form does", async () => {
    expect(fieldErrorWords('Invalid value zz.', 'validation_in_invalid', DEFAULT_WORDS)).toBe('Invalid value zz.');
    await setLanguage('de');
    expect(fieldErrorWords('Invalid value zz.', 'validation_in_invalid', DEFAULT_WORDS)).toBe('Ungültiger Wert zz.');
    expect(fieldErrorWords('Minimum 3 characters.', 'validation_length_too_short', DEFAULT_WORDS)).toBe('Mindestens 3 Zeichen.');
    expect(fieldErrorWords('Select up to 2 items.', 'validation_length_too_long', DEFAULT_WORDS)).toBe('Höchstens 2 Einträge auswählen.');
    // a value that is itself one of the server's fixed words is worded too
    expect(serverWords('Only read-only statements can run here (SELECT, WITH, EXPLAIN QUERY PLAN and read-only pragmas): DELETE is not one.', 'sql_write')).toBe(
      'Hier können nur lesende Anweisungen laufen (SELECT, WITH, EXPLAIN QUERY PLAN und lesende Pragmas): DELETE gehört nicht dazu.',
    );
    // a server message goes on to the server's words
    expect(fieldErrorWords('Failed to create record.', undefined, DEFAULT_WORDS)).toBe('Der Datensatz konnte nicht erstellt werden.');
  });
});
