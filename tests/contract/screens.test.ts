// Screen files (screens/*.json) hold only keys something reads: the parser rejects any other key,
// and the requests a screen names (load, an action's method and path, a check) are sent only by the
// screen runner (ScreenView/useScreen), so a screen a page draws by hand may not name any.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExtraActions, parseScreen, type ScreenDefinition } from '../../src/engine/screen';
import { loadCatalog, ROOT } from '../../scripts/gen-docs';

const catalog = loadCatalog();

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? sources(file) : /\.tsx?$/.test(e.name) ? [fs.readFileSync(file, 'utf8')] : [];
  });
}
const pages = sources(path.join(ROOT, 'src', 'pages'));

/** Screens a page draws itself, reading only their texts: getScreen('x') / screenForm('x'). */
const drawnByHand = new Set(pages.flatMap((src) => [...src.matchAll(/\b(?:getScreen|screenForm)\('([\w-]+)'\)/g)].map((m) => m[1])));
/** Actions a form adds to its template screen (a provider's root `ui:options.actions`). */
const formActions = catalog.forms.flatMap((f) => parseExtraActions(f.name, (f.uiSchema['ui:options'] as { actions?: unknown } | undefined)?.actions));
/** Screens the runner draws: a page that uses ScreenView names them, or an action (a screen's or a form's) opens them. */
const drawnByRunner = new Set([
  ...pages.filter((src) => src.includes('ScreenView')).flatMap((src) => [...src.matchAll(/['"]([\w-]+)['"]/g)].map((m) => m[1])),
  ...[...catalog.screens.flatMap((s) => s.actions ?? []), ...formActions].flatMap((a) => (a.opens ? [a.opens] : [])),
]);

const requestsOf = (s: ScreenDefinition): string[] => [
  ...(s.load ? ['load'] : []),
  ...(s.check ? ['check'] : []),
  ...(s.actions ?? []).flatMap((a) => (['method', 'path', 'body', 'timeout', 'timeoutMessage', 'show', 'opens', 'pass', 'result', 'set'] as const).filter((k) => a[k] !== undefined).map((k) => `actions.${a.id}.${k}`)),
];

it('rejects a key nothing reads, at every level', () => {
  const base = { title: 'T', route: '/t', sections: [{ schema: 'admins/login' }], actions: [{ id: 'a', label: 'A' }] };
  expect(() => parseScreen('t', base)).not.toThrow();
  expect(() => parseScreen('t', { ...base, loads: '/api/x' })).toThrow(/unknown key "loads"/);
  expect(() => parseScreen('t', { ...base, sections: [{ schema: 'admins/login', binds: 'x' }] })).toThrow(/sections\[0\] has unknown key "binds"/);
  expect(() => parseScreen('t', { ...base, actions: [{ id: 'a', label: 'A', pathNew: '/api/x' }] })).toThrow(/actions\[0\] has unknown key "pathNew"/);
  expect(() => parseScreen('t', { ...base, actions: [{ id: 'a', label: 'A', pass: { x: 'y' } }] })).toThrow(/actions\[0\].pass needs "opens"/);
  expect(() => parseScreen('t', { ...base, actions: [{ id: 'a', label: 'A', opens: 's', result: { x: 1 } }] })).toThrow(/result must map field names/);
  expect(() => parseExtraActions('schemas/providers/x.ui.json', [{ id: 'a', label: 'A', open: 's' }])).toThrow(/^schemas\/providers\/x.ui.json: actions\[0\] has unknown key "open"/);
});

it('lets a provider add actions to its popup from its own files only', () => {
  expect(formActions.map((a) => a.opens)).toContain('settings-apple-secret');
  const template = catalog.screens.find((s) => s.name === 'settings-auth-provider');
  expect(template?.actions?.some((a) => a.opens === 'settings-apple-secret'), 'the generic provider screen names Apple').toBe(false);
});

it('finds the screens drawn by hand and by the runner', () => {
  expect([...drawnByHand]).toEqual(expect.arrayContaining(['login', 'installer', 'admin-editor', 'request-password-reset', 'confirm-password-reset']));
  expect([...drawnByRunner]).toEqual(expect.arrayContaining(['settings-mail', 'settings-test-email', 'settings-auth-provider']));
});

describe.each(catalog.screens.map((s) => [s.name, s] as const))('screens/%s.json', (name, screen) => {
  it('is drawn by a page or by the runner, and names requests only when the runner sends them', () => {
    expect(drawnByHand.has(name) || drawnByRunner.has(name), 'used by no page').toBe(true);
    if (drawnByHand.has(name)) expect(requestsOf(screen), 'request keys no code reads').toEqual([]);
  });
});
