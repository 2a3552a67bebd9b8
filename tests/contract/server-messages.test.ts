// The server's messages are shown in the dashboard's language through their codes (issue 37): every
// field error code the server's sources hold (`validation_*`, with the words found beside it) and
// every message its error helpers send in the envelope has an English template in
// locales/en/server.json (which src/ui/i18n.ts serverWords matches), so a new message without one
// fails here. tests/contract/i18n.test.ts checks each language translates every key.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLocale, SOURCE_LANGUAGE } from '../../src/lib/i18n/locale-files';
import { serverMessages, templateWords } from '../helpers/server-messages';

const ROOT = path.resolve(import.meta.dirname, '../..');
const en = readLocale(ROOT, SOURCE_LANGUAGE, 'server');
const found = serverMessages(ROOT);
const templatesOf = (code: string | undefined) =>
  Object.entries(en).filter(([key]) => (code ? key === `server.${code}` || key.startsWith(`server.${code}.`) : key.startsWith('server.envelope.')));

describe("the server's messages", () => {
  it('are found in the sources (the scan still reads them)', () => {
    const codes = new Set(found.map((f) => f.code).filter(Boolean));
    expect(codes.size).toBeGreaterThan(60);
    expect(found.filter((f) => !f.code && f.text).length).toBeGreaterThan(40);
    // known ones: an envelope default, a constant given to a helper, a code with its words
    expect(found.some((f) => !f.code && f.text === "The requested resource wasn't found.")).toBe(true);
    expect(found.some((f) => !f.code && f.text === 'Failed to create record.')).toBe(true);
    expect(found.some((f) => f.code === 'validation_required' && f.text === 'Cannot be blank.')).toBe(true);
  });

  it('each field error code has a template in locales/en/server.json', () => {
    const missing = [...new Set(found.filter((f) => f.code && !templatesOf(f.code).length).map((f) => `${f.code} (${f.at})`))];
    expect(missing, 'add server.<code> to locales/en/server.json and its translations').toEqual([]);
  });

  it("each code's words and each envelope message match a template of theirs", () => {
    const unmatched = found
      .filter((f) => f.text !== undefined && /\p{L}/u.test(f.text.replace(/\{\}/g, '')))
      .filter((f) => !templatesOf(f.code).some(([, template]) => typeof template === 'string' && templateWords(template, f.text!)))
      .map((f) => `${f.code ?? 'envelope'}: ${JSON.stringify(f.text)} (${f.at})`);
    expect([...new Set(unmatched)], 'word it in locales/en/server.json (server.<code>.<variant> or server.envelope.<name>, {name} for a value) and translate it').toEqual([]);
  });
});
