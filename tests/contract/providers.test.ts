// The provider files (schemas/providers/<name>.schema.json + .ui.json + public/images/oauth2 logo):
// every file is well formed (its x-provider facts are checked by the keyword's meta-schema when the
// schema compiles, see schemas.test.ts), PocketBase 0.22's provider keys are all there, and adding a provider or a
// setting is adding files: a temporary copy of schemas/ with a new provider file and a new logs
// setting finds both rendered, stored (defaults), validated and documented, with no code change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, describe, expect, it } from 'vitest';
import RjsfForm from '../../src/engine/RjsfForm';
import { generateDocs, loadCatalog, ROOT } from '../../scripts/gen-docs';
import { loadProviders, providerDefaults } from '../../server/services/providers';
import { defaultSettings } from '../../server/services/settings-defaults';
import { mergePatch } from '../../server/services/settings-merge';
import { validateSettings } from '../../server/services/settings-validate';

/** The settings keys of PocketBase 0.22's OAuth2 providers (a maintainer may add more files). */
const PROVIDER_KEYS = [
  'appleAuth', 'googleAuth', 'microsoftAuth', 'yandexAuth', 'facebookAuth', 'instagramAuth', 'githubAuth', 'gitlabAuth',
  'bitbucketAuth', 'giteeAuth', 'giteaAuth', 'discordAuth', 'twitterAuth', 'kakaoAuth', 'vkAuth', 'spotifyAuth', 'twitchAuth',
  'patreonAuth', 'stravaAuth', 'livechatAuth', 'mailcowAuth', 'planningcenterAuth', 'oidcAuth', 'oidc2Auth', 'oidc3Auth',
];

const providers = loadProviders();

it("has a file for each of PocketBase 0.22's providers, and one provider per file", () => {
  const files = fs.readdirSync(path.join(ROOT, 'schemas', 'providers')).filter((f) => f.endsWith('.schema.json'));
  expect(providers.map((p) => p.key).sort()).toEqual(files.map((f) => `${f.replace('.schema.json', '')}Auth`).sort());
  expect(providers.map((p) => p.key)).toEqual(expect.arrayContaining(PROVIDER_KEYS));
});

describe.each(providers.map((p) => [p.name, p] as const))('providers/%s', (name, p) => {
  it('has a logo, the common fields, and needs clientId/clientSecret only when enabled', () => {
    expect(name).toMatch(/^[a-z0-9]+$/);
    expect(fs.existsSync(path.join(ROOT, 'public', 'images', 'oauth2', p.facts.logo)), p.facts.logo).toBe(true);
    const props = p.schema.properties as Record<string, { type?: string }>;
    expect(props.enabled?.type).toBe('boolean');
    expect(props.clientId?.type).toBe('string');
    expect(props.clientSecret?.type).toBe('string');
    expect((p.schema.required as string[] | undefined) ?? []).toEqual([]);
    expect((p.schema.then as { required: string[] }).required).toEqual(expect.arrayContaining(['clientId', 'clientSecret']));
    const ui = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', 'providers', `${name}.ui.json`), 'utf8'));
    expect(ui.clientSecret?.['ui:widget']).toBe('secret');
    // endpoints the server needs: from the file, or required from the settings when the file has none
    for (const k of ['authUrl', 'tokenUrl'] as const) {
      if (!p.facts[k]) expect((p.schema.then as { required: string[] }).required, `${k} required when enabled`).toContain(k);
    }
  });
});

it('the OIDC providers default to the display name OIDC and PKCE on', () => {
  for (const name of ['oidc', 'oidc2', 'oidc3']) {
    expect(providerDefaults(providers.find((p) => p.name === name)!)).toMatchObject({ displayName: 'OIDC', pkce: true });
  }
});

describe('adding a provider and a setting is adding files', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-schemas-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.cpSync(path.join(ROOT, 'schemas'), path.join(root, 'schemas'), { recursive: true });
  const schemasDir = path.join(root, 'schemas');
  fs.cpSync(path.join(ROOT, 'screens'), path.join(root, 'screens'), { recursive: true });
  // a new provider: a copy of the OIDC file under another name, with a setting of its own
  const acme = JSON.parse(fs.readFileSync(path.join(root, 'schemas', 'providers', 'oidc.schema.json'), 'utf8'));
  acme.title = 'Acme ID';
  acme['x-provider'] = { ...acme['x-provider'], logo: 'acme.svg', displayName: 'Acme ID' };
  acme.properties.tenant = { type: 'string', title: 'Tenant', default: 'main', minLength: 3 };
  fs.writeFileSync(path.join(root, 'schemas', 'providers', 'acme.schema.json'), JSON.stringify(acme));
  const acmeUi = JSON.parse(fs.readFileSync(path.join(root, 'schemas', 'providers', 'oidc.ui.json'), 'utf8'));
  acmeUi['ui:layout'].push(['tenant']);
  acmeUi.tenant = { 'ui:placeholder': 'Your Acme tenant' };
  fs.writeFileSync(path.join(root, 'schemas', 'providers', 'acme.ui.json'), JSON.stringify(acmeUi));
  // a new logs setting
  const logsFile = path.join(root, 'schemas', 'settings', 'logs.schema.json');
  const logs = JSON.parse(fs.readFileSync(logsFile, 'utf8'));
  logs.properties.retentionNote = { type: 'string', title: 'Retention note', default: 'kept', maxLength: 10 };
  fs.writeFileSync(logsFile, JSON.stringify(logs));

  it('renders the new provider form with its own option', () => {
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(root, 'schemas', 'providers', f), 'utf8'));
    // the rjsf renderer: a new file has no build-time validator, so it is interpreted at run time
    const html = renderToStaticMarkup(createElement(RjsfForm, { schema: read('acme.schema.json'), uiSchema: read('acme.ui.json'), formData: providerDefaults(loadProviders(schemasDir).find((p) => p.name === 'acme')!) }));
    for (const text of ['Client ID', 'Client secret', 'Tenant', 'Your Acme tenant']) expect(html).toContain(text);
  });

  it('stores both with their defaults', () => {
    expect(loadProviders(schemasDir).map((p) => p.key)).toContain('acmeAuth');
    const defaults = defaultSettings(schemasDir) as Record<string, any>;
    expect(defaults.acmeAuth).toMatchObject({ enabled: false, clientId: '', displayName: 'OIDC', pkce: true, tenant: 'main' });
    expect(defaults.logs.retentionNote).toBe('kept');
    const merged = mergePatch(defaults as never, { acmeAuth: { tenant: 'other' }, logs: { retentionNote: 'short' } }) as Record<string, any>;
    expect(merged.acmeAuth.tenant).toBe('other');
    expect(merged.logs.retentionNote).toBe('short');
  });

  it('validates both with their files', () => {
    const defaults = defaultSettings(schemasDir);
    const bad = mergePatch(defaults, { acmeAuth: { enabled: true, tenant: 'x' }, logs: { retentionNote: 'far too long a note' } });
    const errors = validateSettings(bad, ['acmeAuth', 'logs'], schemasDir) as Record<string, any>;
    expect(errors.acmeAuth.clientId.code).toBe('validation_required');
    expect(errors.acmeAuth.tenant.code).toBe('validation_length_too_short');
    expect(errors.logs.retentionNote.code).toBe('validation_length_too_long');
    const good = mergePatch(defaults, {
      acmeAuth: { enabled: true, clientId: 'a', clientSecret: 'b', authUrl: 'https://a.example/auth', tokenUrl: 'https://a.example/token', userApiUrl: 'https://a.example/me' },
    });
    expect(validateSettings(good, ['acmeAuth'], schemasDir)).toEqual({});
  });

  it('documents both', () => {
    const docs = generateDocs(loadCatalog(root));
    expect(docs.get('providers/acme.md')).toContain('Acme ID');
    expect(docs.get('providers/acme.md')).toContain('tenant');
    expect(docs.get('settings/logs.md')).toContain('retentionNote');
  });
});
