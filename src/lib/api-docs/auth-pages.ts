// The auth pages of an auth collection's API docs: password and OAuth2 sign-in, refresh,
// verification, password reset, email change, auth methods and linked OAuth2 accounts.
import type { CollectionModel } from '../collections/types';
import { error, json, NOT_FOUND, param, readQueryParams, sdkHeader, type DocPage, type DocsContext } from './doc-page';
import { exampleRecord, responseFields, type DocParam } from './fields';

export function authPages(collection: CollectionModel, ctx: DocsContext): DocPage[] {
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
