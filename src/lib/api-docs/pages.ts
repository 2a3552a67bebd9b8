// The API docs of one collection (spec §2 'API docs overlay'): one page per tab, generated from
// the collection itself: its fields, its rules in words, the query parameters, request bodies,
// response examples built from the schema, error responses and JavaScript SDK examples.
// Which tabs exist follows 0.22: view collections only List/Search and View; auth collections
// add the 12 auth tabs (without 'Auth with password' when neither username nor email sign-in is
// on, without 'Auth with OAuth2' when OAuth2 is off).
import type { CollectionModel } from '../collections/types';
import { bodyParams, exampleBody, exampleRecord, fileFields, responseFields, type DocParam } from './fields';

export type { DocParam } from './fields';

export interface DocResponse {
  status: number;
  body: string;
}

export interface DocPage {
  id: string;
  /** The navigation label (spec wording). */
  tab: string;
  title: string;
  intro: string[];
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Who may call it, in words. */
  access: string;
  /** The rule behind `access`, when one applies (shown as code). */
  rule?: string | null;
  pathParams: DocParam[];
  queryParams: DocParam[];
  bodyParams: DocParam[];
  /** The fields of the returned record (read endpoints). */
  fields: DocParam[];
  responses: DocResponse[];
  /** A JavaScript SDK example. */
  sdk: string;
  notes: string[];
}

export interface DocsContext {
  /** The server's base URL for the examples. */
  baseUrl: string;
  /** Collection id → collection (relation targets by name). */
  lookup: (id: string) => { name: string } | undefined;
}

export const BASE_TABS = ['List/Search', 'View', 'Create', 'Update', 'Delete', 'Realtime'] as const;
export const AUTH_TABS = [
  'Auth with password',
  'Auth with OAuth2',
  'Auth refresh',
  'Request verification',
  'Confirm verification',
  'Request password reset',
  'Confirm password reset',
  'Request email change',
  'Confirm email change',
  'List auth methods',
  'List OAuth2 accounts',
  'Unlink OAuth2 account',
] as const;

const json = (v: unknown) => JSON.stringify(v, null, 2);
const error = (status: number, message: string, data: Record<string, unknown> = {}) => ({ status, body: json({ code: status, message, data }) });

const ONLY_ADMINS = 'Only admins can perform this action.';
const NOT_FOUND = "The requested resource wasn't found.";
const GENERIC_400 = 'Something went wrong while processing your request.';

/** Who may call an endpoint guarded by `rule`, in words. */
export function ruleInWords(rule: string | null | undefined): string {
  if (rule === null || rule === undefined) return 'Admins only (the rule is locked). Requires an admin Authorization header.';
  if (rule.trim() === '') return 'Anyone, guests included (the rule is empty).';
  const needsAuth = /@request\.auth\./.test(rule);
  return `Admins, and ${needsAuth ? 'signed-in callers' : 'callers'} for whom this rule holds on the record:`;
}

const param = (name: string, type: string, description: string, required = false): DocParam => ({ name, type, required, description });

function readQueryParams(collection: CollectionModel): DocParam[] {
  const relations = collection.schema.filter((f) => f.type === 'relation' && !f.toDelete).map((f) => f.name);
  return [
    param(
      'expand',
      'String',
      `Relations to return in "expand", comma separated, nested with dots (up to 6 levels)${relations.length ? `; e.g. ${relations.join(', ')}` : ''}. Expanded records follow their own view rule.`,
    ),
    param('fields', 'String', 'Only these keys in the response, comma separated (e.g. "id,created,expand.rel.name"); "*" for all; ":excerpt(200,true)" shortens a text value.'),
  ];
}

function sdkHeader(ctx: DocsContext): string {
  return `import PocketBase from 'pocketbase';\n\nconst pb = new PocketBase('${ctx.baseUrl}');\n\n...\n\n`;
}

function basePages(collection: CollectionModel, ctx: DocsContext): DocPage[] {
  const name = collection.name;
  const path = `/api/collections/${name}/records`;
  const record = exampleRecord(collection);
  const fields = responseFields(collection, ctx.lookup);
  const fieldNames = fields.map((f) => f.name);
  const files = fileFields(collection);
  const idParam = param('id', 'String', `The id of the ${name} record.`, true);
  const head = sdkHeader(ctx);
  const writeNote = files.length
    ? [`File fields (${files.join(', ')}) are sent as multipart/form-data; the SDK does this when a value is a File or Blob.`]
    : [];
  const common = { pathParams: [] as DocParam[], queryParams: [] as DocParam[], bodyParams: [] as DocParam[], fields: [] as DocParam[], notes: [] as string[] };

  const hasCreated = collection.type !== 'view' || collection.schema.some((f) => f.name === 'created');
  const exampleFilter = hasCreated ? 'created >= "2022-01-01 00:00:00"' : 'id != ""';
  const list: DocPage = {
    ...common,
    id: 'list',
    tab: 'List/Search',
    title: `List/Search (${name})`,
    intro: [`Returns a paginated list of ${name} records, optionally filtered and sorted.`],
    method: 'GET',
    path,
    access: ruleInWords(collection.listRule),
    rule: collection.listRule,
    queryParams: [
      param('page', 'Number', 'The page of the list (default 1).'),
      param('perPage', 'Number', 'Records per page (default 30, at most 500).'),
      param('sort', 'String', `Sort fields, comma separated; "-" in front for descending, e.g. "-created,id". Also @random. Fields: ${fieldNames.join(', ')}.`),
      param('filter', 'String', `A filter expression, e.g. (id='abc' && created>'2022-01-01'). Fields: ${fieldNames.join(', ')}. Non-admins cannot use @collection.* or @request.* here.`),
      ...readQueryParams(collection),
      param('skipTotal', 'Boolean', 'Skips the total count (faster); totalItems and totalPages are then -1.'),
    ],
    fields,
    responses: [
      { status: 200, body: json({ page: 1, perPage: 30, totalItems: 2, totalPages: 1, items: [record, { ...record, id: 'RECORD_ID_2' }] }) },
      error(400, GENERIC_400),
      error(403, collection.listRule === null ? ONLY_ADMINS : 'Only admins can filter by @collection.'),
    ],
    sdk:
      head +
      `// one page\nconst resultList = await pb.collection('${name}').getList(1, 50, {\n    filter: '${exampleFilter}',\n});\n\n` +
      `// every record (batched requests)\nconst records = await pb.collection('${name}').getFullList({\n    sort: '-created',\n});\n\n` +
      `// the first match\nconst firstItem = await pb.collection('${name}').getFirstListItem('id != ""', {\n    expand: '${collection.schema.find((f) => f.type === 'relation')?.name ?? 'relField1,relField2.subRelField'}',\n});`,
  };

  const view: DocPage = {
    ...common,
    id: 'view',
    tab: 'View',
    title: `View (${name})`,
    intro: [`Returns one ${name} record by its id.`],
    method: 'GET',
    path: `${path}/:id`,
    access: ruleInWords(collection.viewRule),
    rule: collection.viewRule,
    pathParams: [idParam],
    queryParams: readQueryParams(collection),
    fields,
    responses: [{ status: 200, body: json(record) }, error(403, ONLY_ADMINS), error(404, NOT_FOUND)],
    sdk: head + `const record = await pb.collection('${name}').getOne('RECORD_ID', {\n    expand: 'relField1,relField2.subRelField',\n});`,
  };

  if (collection.type === 'view') {
    const viewNote = 'A view collection is read only: its records come from its SQL query.';
    return [
      { ...list, notes: [viewNote] },
      { ...view, notes: [viewNote] },
    ];
  }

  const create: DocPage = {
    ...common,
    id: 'create',
    tab: 'Create',
    title: `Create (${name})`,
    intro: [`Creates a new ${name} record.`],
    method: 'POST',
    path,
    access: ruleInWords(collection.createRule),
    rule: collection.createRule,
    queryParams: readQueryParams(collection),
    bodyParams: bodyParams(collection, true, ctx.lookup),
    fields,
    responses: [
      { status: 200, body: json(record) },
      error(400, 'Failed to create record.', { [collection.schema[0]?.name ?? 'id']: { code: 'validation_required', message: 'Missing required value.' } }),
      error(403, ONLY_ADMINS),
    ],
    sdk: head + `const data = ${json(exampleBody(collection, true))};\n\nconst record = await pb.collection('${name}').create(data);`,
    notes: [
      ...writeNote,
      ...(collection.type === 'auth' ? ['Creating an auth record does not sign it in; call authWithPassword afterwards.'] : []),
    ],
  };

  const update: DocPage = {
    ...common,
    id: 'update',
    tab: 'Update',
    title: `Update (${name})`,
    intro: [`Changes an existing ${name} record; only the sent fields change.`],
    method: 'PATCH',
    path: `${path}/:id`,
    access: ruleInWords(collection.updateRule),
    rule: collection.updateRule,
    pathParams: [idParam],
    queryParams: readQueryParams(collection),
    bodyParams: bodyParams(collection, false, ctx.lookup),
    fields,
    responses: [
      { status: 200, body: json(record) },
      error(400, 'Failed to update record.', { [collection.schema[0]?.name ?? 'id']: { code: 'validation_required', message: 'Missing required value.' } }),
      error(403, ONLY_ADMINS),
      error(404, NOT_FOUND),
    ],
    sdk: head + `const data = ${json(exampleBody(collection, false))};\n\nconst record = await pb.collection('${name}').update('RECORD_ID', data);`,
    notes: [
      ...writeNote,
      'Number fields take "field+": 1 / "field-": 1 to add or subtract; multiple select, file and relation fields take "field+" / "field-" to append or remove values.',
    ],
  };

  const del: DocPage = {
    ...common,
    id: 'delete',
    tab: 'Delete',
    title: `Delete (${name})`,
    intro: [`Deletes one ${name} record. Relations pointing at it lose the id; those set to cascade delete go too.`],
    method: 'DELETE',
    path: `${path}/:id`,
    access: ruleInWords(collection.deleteRule),
    rule: collection.deleteRule,
    pathParams: [idParam],
    responses: [
      { status: 204, body: 'null' },
      error(400, 'Failed to delete record. Make sure that the record is not part of a required relation reference.'),
      error(403, ONLY_ADMINS),
      error(404, NOT_FOUND),
    ],
    sdk: head + `await pb.collection('${name}').delete('RECORD_ID');`,
  };

  const realtime: DocPage = {
    ...common,
    id: 'realtime',
    tab: 'Realtime',
    title: `Realtime (${name})`,
    intro: [
      'Subscribes to changes over server-sent events (SSE): every create, update and delete sends {action, record}.',
      `Subscribing to the whole collection ("${name}/*") uses the list rule; subscribing to one record ("${name}/RECORD_ID") uses the view rule.`,
    ],
    method: 'GET',
    path: '/api/realtime',
    access: `Whole collection: ${ruleInWords(collection.listRule)} One record: ${ruleInWords(collection.viewRule)}`,
    rule: null,
    queryParams: [
      param('filter', 'String', 'Subscription option: only records matching this filter.'),
      ...readQueryParams(collection).map((p) => ({ ...p, description: `Subscription option. ${p.description}` })),
    ],
    fields,
    responses: [
      { status: 200, body: `id:CLIENT_ID\nevent:PB_CONNECT\ndata:{"clientId":"CLIENT_ID"}\n\nid:CLIENT_ID\nevent:${name}/*\ndata:${JSON.stringify({ record, action: 'create' })}` },
      error(403, "The current and the previous request authorization don't match."),
      error(404, 'Missing or invalid client id.'),
    ],
    sdk:
      head +
      `// (optionally) sign in first: events follow the rules for that account\n\n` +
      `// changes of any ${name} record\npb.collection('${name}').subscribe('*', function (e) {\n    console.log(e.action, e.record);\n}, { expand: 'relField1' });\n\n` +
      `// changes of one record\npb.collection('${name}').subscribe('RECORD_ID', function (e) {\n    console.log(e.action, e.record);\n});\n\n` +
      `// stop\npb.collection('${name}').unsubscribe('RECORD_ID');\npb.collection('${name}').unsubscribe('*');\npb.collection('${name}').unsubscribe();`,
    notes: [
      'The connection: GET /api/realtime answers with the stream; its first event, PB_CONNECT, carries the clientId. POST /api/realtime {clientId, subscriptions} sets the topics (204); an empty list unsubscribes.',
      'A connection without messages is closed after 5 minutes; the SDK reconnects and subscribes again by itself.',
    ],
  };

  return [list, view, create, update, del, realtime];
}

function authPages(collection: CollectionModel, ctx: DocsContext): DocPage[] {
  const name = collection.name;
  const base = `/api/collections/${name}`;
  const o = collection.options ?? {};
  const record = exampleRecord(collection);
  const head = sdkHeader(ctx);
  const tokenBody = json({ token: 'JWT_TOKEN', record });
  const noBody = { pathParams: [] as DocParam[], queryParams: [] as DocParam[], bodyParams: [] as DocParam[], fields: [] as DocParam[], notes: [] as string[], rule: undefined };
  const anyone = 'Anyone.';
  const signedIn = `A signed-in ${name} record (its auth token in the Authorization header).`;
  const identity = o.allowUsernameAuth && o.allowEmailAuth ? 'username or email' : o.allowUsernameAuth ? 'username' : 'email';
  const minPass = Number(o.minPasswordLength) || 8;
  const pages: DocPage[] = [];

  if (o.allowUsernameAuth || o.allowEmailAuth) {
    pages.push({
      ...noBody,
      id: 'auth-with-password',
      tab: 'Auth with password',
      title: `Auth with password (${name})`,
      intro: [`Signs in with ${identity} and password and returns a new auth token with the record.`],
      method: 'POST',
      path: `${base}/auth-with-password`,
      access: o.onlyVerified ? 'Anyone; only verified accounts may sign in.' : anyone,
      queryParams: readQueryParams(collection),
      bodyParams: [param('identity', 'String', `The account ${identity}.`, true), param('password', 'String', 'The account password.', true)],
      fields: responseFields(collection, ctx.lookup),
      responses: [{ status: 200, body: tokenBody }, error(400, 'Failed to authenticate.', { identity: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `const authData = await pb.collection('${name}').authWithPassword('YOUR_${identity === 'email' ? 'EMAIL' : 'USERNAME_OR_EMAIL'}', 'YOUR_PASSWORD');\n\nconsole.log(pb.authStore.isValid, pb.authStore.token, pb.authStore.model.id);\n\n// sign out\npb.authStore.clear();`,
      notes: ['Repeated failed sign-ins are answered 429 for a while.'],
    });
  }
  if (o.allowOAuth2Auth) {
    pages.push({
      ...noBody,
      id: 'auth-with-oauth2',
      tab: 'Auth with OAuth2',
      title: `Auth with OAuth2 (${name})`,
      intro: [
        'Signs in (or signs up) with an OAuth2 provider enabled in the settings.',
        'The all-in-one SDK call opens the provider in a popup; the provider redirects to /api/oauth2-redirect, which hands the code to the waiting SDK over the realtime connection (topic @oauth2), and the SDK exchanges it here.',
      ],
      method: 'POST',
      path: `${base}/auth-with-oauth2`,
      access: anyone,
      queryParams: readQueryParams(collection),
      bodyParams: [
        param('provider', 'String', 'The provider name, as listed by List auth methods (e.g. google).', true),
        param('code', 'String', 'The authorization code from the provider redirect.', true),
        param('codeVerifier', 'String', 'The PKCE code verifier listed by List auth methods.', true),
        param('redirectUrl', 'String', 'The redirect URL sent to the provider.', true),
        param('createData', 'Object', 'Values for a new record created on first sign-in.'),
      ],
      fields: responseFields(collection, ctx.lookup),
      responses: [
        { status: 200, body: json({ token: 'JWT_TOKEN', record, meta: { id: 'abc123', name: 'John Doe', username: 'john.doe', email: 'test@example.com', avatarUrl: 'https://example.com/avatar.png', isNew: false } }) },
        error(400, 'An error occurred while submitting the form.', { provider: { code: 'validation_required', message: 'Missing required value.' } }),
      ],
      sdk: head + `const authData = await pb.collection('${name}').authWithOAuth2({ provider: 'google' });\n\nconsole.log(pb.authStore.isValid, pb.authStore.token, pb.authStore.model.id);`,
    });
  }
  pages.push(
    {
      ...noBody,
      id: 'auth-refresh',
      tab: 'Auth refresh',
      title: `Auth refresh (${name})`,
      intro: ['Returns a new auth token (and the current record) for the signed-in record.'],
      method: 'POST',
      path: `${base}/auth-refresh`,
      access: signedIn,
      queryParams: readQueryParams(collection),
      fields: responseFields(collection, ctx.lookup),
      responses: [
        { status: 200, body: tokenBody },
        error(401, 'The request requires valid record authorization token to be set.'),
        error(403, 'The authorized record model is not allowed to perform this action.'),
        error(404, 'Missing auth record context.'),
      ],
      sdk: head + `const authData = await pb.collection('${name}').authRefresh();`,
    },
    {
      ...noBody,
      id: 'request-verification',
      tab: 'Request verification',
      title: `Request verification (${name})`,
      intro: ['Sends a verification email to an unverified account. Answers 204 whether the email exists or not.'],
      method: 'POST',
      path: `${base}/request-verification`,
      access: anyone,
      bodyParams: [param('email', 'String', 'The account email.', true)],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { email: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').requestVerification('test@example.com');`,
    },
    {
      ...noBody,
      id: 'confirm-verification',
      tab: 'Confirm verification',
      title: `Confirm verification (${name})`,
      intro: ['Marks the account as verified with the token from the verification email.'],
      method: 'POST',
      path: `${base}/confirm-verification`,
      access: anyone,
      bodyParams: [param('token', 'String', 'The token from the verification email.', true)],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { token: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').confirmVerification('VERIFICATION_TOKEN');`,
    },
    {
      ...noBody,
      id: 'request-password-reset',
      tab: 'Request password reset',
      title: `Request password reset (${name})`,
      intro: ['Sends a password reset email. Answers 204 whether the email exists or not.'],
      method: 'POST',
      path: `${base}/request-password-reset`,
      access: anyone,
      bodyParams: [param('email', 'String', 'The account email.', true)],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { email: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').requestPasswordReset('test@example.com');`,
    },
    {
      ...noBody,
      id: 'confirm-password-reset',
      tab: 'Confirm password reset',
      title: `Confirm password reset (${name})`,
      intro: ['Sets a new password with the token from the password reset email; earlier tokens of the account stop working.'],
      method: 'POST',
      path: `${base}/confirm-password-reset`,
      access: anyone,
      bodyParams: [
        param('token', 'String', 'The token from the password reset email.', true),
        param('password', 'String', `The new password, at least ${minPass} characters.`, true),
        param('passwordConfirm', 'String', 'The same as password.', true),
      ],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { token: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').confirmPasswordReset('RESET_TOKEN', 'NEW_PASSWORD', 'NEW_PASSWORD');`,
    },
    {
      ...noBody,
      id: 'request-email-change',
      tab: 'Request email change',
      title: `Request email change (${name})`,
      intro: ['Sends a confirmation email to the new address of the signed-in record.'],
      method: 'POST',
      path: `${base}/request-email-change`,
      access: signedIn,
      bodyParams: [param('newEmail', 'String', 'The new email address.', true)],
      responses: [
        { status: 204, body: 'null' },
        error(400, 'An error occurred while validating the submitted data.', { newEmail: { code: 'validation_required', message: 'Cannot be blank.' } }),
        error(401, 'The request requires valid record authorization token to be set.'),
        error(403, 'The authorized record model is not allowed to perform this action.'),
      ],
      sdk: head + `await pb.collection('${name}').authWithPassword('test@example.com', '1234567890');\n\nawait pb.collection('${name}').requestEmailChange('new@example.com');`,
    },
    {
      ...noBody,
      id: 'confirm-email-change',
      tab: 'Confirm email change',
      title: `Confirm email change (${name})`,
      intro: ['Changes the email with the token from the email change mail and the account password.'],
      method: 'POST',
      path: `${base}/confirm-email-change`,
      access: anyone,
      bodyParams: [param('token', 'String', 'The token from the email change mail.', true), param('password', 'String', 'The account password.', true)],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { token: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').confirmEmailChange('EMAIL_CHANGE_TOKEN', 'YOUR_PASSWORD');`,
    },
    {
      ...noBody,
      id: 'list-auth-methods',
      tab: 'List auth methods',
      title: `List auth methods (${name})`,
      intro: ['Lists the sign-in methods of the collection and its enabled OAuth2 providers (with a fresh state and PKCE pair each).'],
      method: 'GET',
      path: `${base}/auth-methods`,
      access: anyone,
      queryParams: [param('fields', 'String', 'Only these keys in the response, comma separated.')],
      responses: [
        {
          status: 200,
          body: json({
            usernamePassword: !!o.allowUsernameAuth,
            emailPassword: !!o.allowEmailAuth,
            authProviders: o.allowOAuth2Auth
              ? [{ name: 'github', displayName: 'GitHub', state: 'STATE', authUrl: 'https://github.com/login/oauth/authorize?client_id=...&redirect_uri=', codeVerifier: 'CODE_VERIFIER', codeChallenge: 'CODE_CHALLENGE', codeChallengeMethod: 'S256' }]
              : [],
          }),
        },
      ],
      sdk: head + `const result = await pb.collection('${name}').listAuthMethods();`,
    },
    {
      ...noBody,
      id: 'list-linked-accounts',
      tab: 'List OAuth2 accounts',
      title: `List OAuth2 accounts (${name})`,
      intro: ['Lists the OAuth2 identities linked to a record.'],
      method: 'GET',
      path: `${base}/records/:id/external-auths`,
      access: `Admins, and the ${name} record itself${typeof o.manageRule === 'string' && o.manageRule ? ' or its managers' : ''}.`,
      pathParams: [param('id', 'String', `The id of the ${name} record.`, true)],
      responses: [
        {
          status: 200,
          body: json([{ id: 'EXTERNAL_AUTH_ID', created: '2022-01-01 10:00:00.123Z', updated: '2022-01-01 10:00:00.123Z', recordId: 'RECORD_ID', collectionId: collection.id, provider: 'google', providerId: 'PROVIDER_USER_ID' }]),
        },
        error(401, 'The request requires valid record authorization token to be set.'),
        error(403, 'The authorized record model is not allowed to perform this action.'),
        error(404, NOT_FOUND),
      ],
      sdk: head + `const result = await pb.collection('${name}').listExternalAuths(pb.authStore.model.id);`,
    },
    {
      ...noBody,
      id: 'unlink-account',
      tab: 'Unlink OAuth2 account',
      title: `Unlink OAuth2 account (${name})`,
      intro: ['Removes the link between a record and one OAuth2 provider.'],
      method: 'DELETE',
      path: `${base}/records/:id/external-auths/:provider`,
      access: `Admins, and the ${name} record itself${typeof o.manageRule === 'string' && o.manageRule ? ' or its managers' : ''}.`,
      pathParams: [param('id', 'String', `The id of the ${name} record.`, true), param('provider', 'String', 'The provider name, e.g. google.', true)],
      responses: [
        { status: 204, body: 'null' },
        error(401, 'The request requires valid record authorization token to be set.'),
        error(403, 'The authorized record model is not allowed to perform this action.'),
        error(404, NOT_FOUND),
      ],
      sdk: head + `await pb.collection('${name}').unlinkExternalAuth(pb.authStore.model.id, 'google');`,
    },
  );
  return pages;
}

/** Every page of the collection's API docs, in tab order. */
export function apiDocsPages(collection: CollectionModel, ctx: DocsContext): DocPage[] {
  const pages = basePages(collection, ctx);
  if (collection.type === 'auth') pages.push(...authPages(collection, ctx));
  return pages;
}
