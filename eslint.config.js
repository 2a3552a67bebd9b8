import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { readFileSync } from 'node:fs';
import { importResolution } from './scripts/import-resolution.mjs';

// The dashboard's layers, each importing only those below it: app (the router, the frame, the
// palette: the top) → pages → shell (toasts, confirm, navigation, page title, the settings layout)
// → engine → widgets → ui → lib; api/ and state/ (the API client, the global stores) serve app,
// pages, shell and widgets, never the engine, ui or lib. README.md "Layout" says why.
const FIELD_DRAWING = ['./src/fields/**/*.tsx', './src/fields/view[s].ts'];
const FIELD_MEANING = ['./src/fields/*/field.ts', './src/fields/shared/*.ts', './src/fields/{registry,record-values,options-ui,types}.ts'];
const zone = (target, from, message) => ({ target: `./src/${target}`, from: from.map((l) => `./src/${l}`), message });
const dashboardLayers = [
  zone('pages', ['app'], 'Pages sit below the app: what they share with it lives in src/shell.'),
  zone('shell', ['app', 'pages', 'engine', 'widgets'], "The shell's services sit below the pages and use only ui, lib, api and state."),
  zone('engine', ['app', 'pages', 'shell', 'api', 'state'], 'The engine reaches the app only through its host (src/engine/host.ts).'),
  zone('widgets', ['app', 'pages', 'shell', 'engine'], 'Widgets sit below the engine and the pages: what a page provides comes through a context.'),
  zone('ui', ['app', 'pages', 'shell', 'engine', 'widgets', 'api', 'state'], 'UI primitives use only src/lib.'),
  zone('lib', ['app', 'pages', 'shell', 'engine', 'widgets', 'ui', 'api', 'state'], 'src/lib imports no other part of the dashboard.'),
  zone('api', ['app', 'pages', 'shell', 'engine', 'widgets', 'ui', 'state'], 'The API client reports to the shell through events (src/api/events.ts).'),
  zone('state', ['app', 'pages', 'shell', 'engine', 'widgets', 'ui'], 'The stores sit below everything that shows them.'),
  // a field type's folder (src/fields/<type>/): field.ts is plain TypeScript the server and lib
  // share; view.tsx draws with ui. Neither reaches above ui, and nothing below draws through them.
  zone('fields', ['app', 'pages', 'shell', 'engine', 'widgets', 'api', 'state'], 'A field type uses only ui (its view) and lib.'),
  { target: ['./src/lib', './src/ui', ...FIELD_MEANING], from: FIELD_DRAWING, message: "A field type's meaning (field.ts, the registry) never imports its drawing (view.tsx)." },
  { target: FIELD_MEANING, from: './src/ui', message: "A field type's field.ts is plain TypeScript the server shares: no ui." },
];
// The server's domain: never imports the HTTP layer.
const SERVER_DOMAIN = 'server/{core,collections,records,query,services,realtime,db,roles}/**/*.ts';
const NO_HTTP = { group: ['**/http/*', '**/http'], message: 'The domain must not import the HTTP layer; move the shared piece to server/core.' };
// The modules that hold the raw database connections: the driver and its pool (db/), the
// composition roots (app.ts, stores.ts, the CLI's commands), the stores, the JS migrations'
// runtime (raw SQL is part of its API) and the backups (they copy and check database files).
// Every other module asks a store (ctx.admins, ctx.records, …) and writes across stores in
// ctx.transaction. README.md "Layout".
const RAW_HANDLE_HOLDERS = [
  'server/app.ts',
  'server/stores.ts',
  'server/cli/**',
  'server/db/**',
  'server/migrations/**',
  'server/hooks/{host,dao-writes}.ts',
  'server/services/{admins,log-store,logs-read,settings-store}.ts',
  'server/services/backups/{create,restore}.ts',
  'server/records/{store,auth-external}.ts',
  'server/roles/store.ts',
  'server/collections/{store,service,import,views,sync,view-schema,view-secrets}.ts',
  'server/audit/{store,audited-stores}.ts',
];
const NO_RAW_HANDLE = {
  group: ['**/db/database'],
  importNames: ['DB', 'Statement', 'transaction', 'unitOfWork', 'openDatabase', 'openReadOnlyDatabase', 'backupDatabase', 'runBatch'],
  message: 'Only the stores and the composition root hold the raw connection: ask a store (ctx.admins, ctx.records, …) or ctx.transaction.',
};
// the collections' schema transaction hands its callback the connection
const NO_SCHEMA_WRITE = {
  group: ['**/collections/store'],
  importNames: ['writeSchema'],
  message: 'writeSchema hands out the raw connection: only the collections module changes the schema (saveCollection, importCollections).',
};
const NO_RAW_SQL = {
  selector: "CallExpression[callee.property.name='prepare']",
  message: 'No SQL outside the stores: call a store of the domain (server/stores.ts).',
};

// Every word the dashboard shows comes from locales/ (README "How to add a language"): a letter in
// JSX text, in a string or template in JSX children, or in a literal given to a worded attribute
// is a word that bypasses the files. Files still holding words are listed in
// scripts/i18n-pending.json (they shrink area by area; a new file is checked from the start).
const WORDED_ATTRIBUTES = '/^(title|placeholder|alt|label|header|aria-label|aria-description|aria-roledescription|emptyText|message)$/';
const IN_JSX = ':matches(JSXElement, JSXFragment) > JSXExpressionContainer';
const VALUE = (at) => [`${at} > Literal`, `${at} > :matches(ConditionalExpression, LogicalExpression) > Literal`, `${at} > :matches(ConditionalExpression, LogicalExpression) > :matches(ConditionalExpression, LogicalExpression) > Literal`];
const TEMPLATE = (at) => [`${at} > TemplateLiteral`, `${at} > :matches(ConditionalExpression, LogicalExpression) > TemplateLiteral`];
const WORD = '[value=/[A-Za-z]{2}/]';
const ATTR = `JSXAttribute[name.name=${WORDED_ATTRIBUTES}]`;
const HARD_CODED_WORDS = [
  { selector: `JSXText${WORD}`, message: 'A word in JSX: use t() and a key in locales/en/ui.json.' },
  ...[...VALUE(IN_JSX), `${ATTR} > Literal`, ...VALUE(`${ATTR} > JSXExpressionContainer`)].map((at) => ({
    selector: `${at}${WORD}`,
    message: 'A word in JSX: use t() and a key in locales/en/ui.json.',
  })),
  ...[...TEMPLATE(IN_JSX), ...TEMPLATE(`${ATTR} > JSXExpressionContainer`)].map((at) => ({
    selector: `${at} > TemplateElement[value.raw=/[A-Za-z]{2}/]`,
    message: 'A word in JSX: use t() and a key in locales/en/ui.json.',
  })),
  // toasts and confirmations
  { selector: `CallExpression[callee.name=/^add[A-Z]\\w*Toast$|^confirm$/] > Literal${WORD}`, message: 'A word in a message: use t() and a key in locales/en/ui.json.' },
  { selector: `CallExpression[callee.name=/^add[A-Z]\\w*Toast$|^confirm$/] > TemplateLiteral > TemplateElement[value.raw=/[A-Za-z]{2}/]`, message: 'A word in a message: use t() and a key in locales/en/ui.json.' },
];
const I18N_PENDING = JSON.parse(readFileSync(new URL('./scripts/i18n-pending.json', import.meta.url), 'utf8')).files;

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'node_modules', 'pb_data', 'docs', 'tests/.tmp', 'bench/.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: importResolution,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: dashboardLayers }] },
  },
  {
    // Server layers point one way: the domain (and the primitives in server/core) never reaches
    // into the HTTP layer; what both need lives in server/core.
    files: [SERVER_DOMAIN],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_HTTP] }] },
  },
  {
    // Only the stores and the composition root hold the raw connections (see RAW_HANDLE_HOLDERS).
    files: [SERVER_DOMAIN],
    ignores: RAW_HANDLE_HOLDERS,
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_HTTP, NO_RAW_HANDLE, NO_SCHEMA_WRITE] }], 'no-restricted-syntax': ['error', NO_RAW_SQL] },
  },
  {
    files: ['server/**/*.ts'],
    ignores: [SERVER_DOMAIN, ...RAW_HANDLE_HOLDERS],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_RAW_HANDLE, NO_SCHEMA_WRITE] }], 'no-restricted-syntax': ['error', NO_RAW_SQL] },
  },
  {
    // The server shares the dashboard's plain TypeScript only: src/lib (schema checks, the error
    // mapper, the ajv set-up), never the engine, pages, app, widgets, UI, API client or stores.
    files: ['server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: importResolution,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server',
              from: ['app', 'pages', 'shell', 'engine', 'widgets', 'ui', 'api', 'state'].map((l) => `./src/${l}`),
              message: 'The server imports src/lib only.',
            },
            { target: './server', from: FIELD_DRAWING, message: "The server imports a field type's meaning (field.ts, the registry), never its drawing." },
          ],
        },
      ],
    },
  },
  {
    // Routes parse the request and answer; SQL lives in the domain's store functions.
    files: ['server/http/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='prepare']", message: 'No SQL in server/http: call a store function of the domain.' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: I18N_PENDING,
    rules: { 'no-restricted-syntax': ['error', ...HARD_CODED_WORDS] },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
