// The auth pages of an auth collection's API docs: password and OAuth2 sign-in, refresh,
// verification, password reset, email change, auth methods and linked OAuth2 accounts.
import type { CollectionModel } from '../collections/types';
import { error, json, NOT_FOUND, pageTitle, param, readQueryParams, sdkHeader, type DocPage, type DocsContext } from './doc-page';
import { exampleRecord, responseFields, type DocParam } from './fields';

export function authPages(collection: CollectionModel, ctx: DocsContext): DocPage[] {
  const name = collection.name;
  const { words } = ctx;
  const page = (tabKey: string) => ({ tab: words(`apiDocs.tab.${tabKey}`), title: pageTitle(words, words(`apiDocs.tab.${tabKey}`), name) });
  const readParams = readQueryParams(collection, words);
  const fields = responseFields(collection, ctx.lookup, words);
  const base = `/api/collections/${name}`;
  const o = collection.options ?? {};
  const record = exampleRecord(collection);
  const head = sdkHeader(ctx);
  const tokenBody = json({ token: 'JWT_TOKEN', record });
  const noBody = { pathParams: [] as DocParam[], queryParams: [] as DocParam[], bodyParams: [] as DocParam[], fields: [] as DocParam[], notes: [] as string[], rule: undefined };
  const anyone = words('apiDocs.auth.anyone');
  const signedIn = words('apiDocs.auth.signedIn', { name });
  const identity = o.allowUsernameAuth && o.allowEmailAuth ? 'usernameOrEmail' : o.allowUsernameAuth ? 'username' : 'email';
  const identityWords = words(`apiDocs.identity.${identity}`);
  const selfAccess = words(typeof o.manageRule === 'string' && o.manageRule ? 'apiDocs.auth.selfOrManagers' : 'apiDocs.auth.self', { name });
  const minPass = Number(o.minPasswordLength) || 8;
  const pages: DocPage[] = [];

  if (o.allowUsernameAuth || o.allowEmailAuth) {
    pages.push({
      ...noBody,
      id: 'auth-with-password',
      ...page('authWithPassword'),
      intro: [words('apiDocs.authPassword.intro', { identity: identityWords })],
      method: 'POST',
      path: `${base}/auth-with-password`,
      access: o.onlyVerified ? words('apiDocs.authPassword.onlyVerified') : anyone,
      queryParams: readParams,
      bodyParams: [param('identity', 'String', words('apiDocs.authPassword.identity', { identity: identityWords }), true), param('password', 'String', words('apiDocs.accountPassword'), true)],
      fields,
      responses: [{ status: 200, body: tokenBody }, error(400, 'Failed to authenticate.', { identity: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `const authData = await pb.collection('${name}').authWithPassword('YOUR_${identity === 'email' ? 'EMAIL' : 'USERNAME_OR_EMAIL'}', 'YOUR_PASSWORD');\n\nconsole.log(pb.authStore.isValid, pb.authStore.token, pb.authStore.model.id);\n\n// sign out\npb.authStore.clear();`,
      notes: [words('apiDocs.authPassword.note')],
    });
  }
  if (o.allowOAuth2Auth) {
    pages.push({
      ...noBody,
      id: 'auth-with-oauth2',
      ...page('authWithOAuth2'),
      intro: [words('apiDocs.oauth2.intro1'), words('apiDocs.oauth2.intro2')],
      method: 'POST',
      path: `${base}/auth-with-oauth2`,
      access: anyone,
      queryParams: readParams,
      bodyParams: [
        param('provider', 'String', words('apiDocs.oauth2.provider'), true),
        param('code', 'String', words('apiDocs.oauth2.code'), true),
        param('codeVerifier', 'String', words('apiDocs.oauth2.codeVerifier'), true),
        param('redirectUrl', 'String', words('apiDocs.oauth2.redirectUrl'), true),
        param('createData', 'Object', words('apiDocs.oauth2.createData')),
      ],
      fields,
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
      ...page('authRefresh'),
      intro: [words('apiDocs.refresh.intro')],
      method: 'POST',
      path: `${base}/auth-refresh`,
      access: signedIn,
      queryParams: readParams,
      fields,
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
      ...page('requestVerification'),
      intro: [words('apiDocs.requestVerification.intro')],
      method: 'POST',
      path: `${base}/request-verification`,
      access: anyone,
      bodyParams: [param('email', 'String', words('apiDocs.accountEmail'), true)],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { email: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').requestVerification('test@example.com');`,
    },
    {
      ...noBody,
      id: 'confirm-verification',
      ...page('confirmVerification'),
      intro: [words('apiDocs.confirmVerification.intro')],
      method: 'POST',
      path: `${base}/confirm-verification`,
      access: anyone,
      bodyParams: [param('token', 'String', words('apiDocs.confirmVerification.token'), true)],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { token: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').confirmVerification('VERIFICATION_TOKEN');`,
    },
    {
      ...noBody,
      id: 'request-password-reset',
      ...page('requestPasswordReset'),
      intro: [words('apiDocs.requestReset.intro')],
      method: 'POST',
      path: `${base}/request-password-reset`,
      access: anyone,
      bodyParams: [param('email', 'String', words('apiDocs.accountEmail'), true)],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { email: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').requestPasswordReset('test@example.com');`,
    },
    {
      ...noBody,
      id: 'confirm-password-reset',
      ...page('confirmPasswordReset'),
      intro: [words('apiDocs.confirmReset.intro')],
      method: 'POST',
      path: `${base}/confirm-password-reset`,
      access: anyone,
      bodyParams: [
        param('token', 'String', words('apiDocs.confirmReset.token'), true),
        param('password', 'String', words('apiDocs.confirmReset.password', { min: minPass }), true),
        param('passwordConfirm', 'String', words('apiDocs.samePassword'), true),
      ],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { token: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').confirmPasswordReset('RESET_TOKEN', 'NEW_PASSWORD', 'NEW_PASSWORD');`,
    },
    {
      ...noBody,
      id: 'request-email-change',
      ...page('requestEmailChange'),
      intro: [words('apiDocs.requestEmailChange.intro')],
      method: 'POST',
      path: `${base}/request-email-change`,
      access: signedIn,
      bodyParams: [param('newEmail', 'String', words('apiDocs.requestEmailChange.newEmail'), true)],
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
      ...page('confirmEmailChange'),
      intro: [words('apiDocs.confirmEmailChange.intro')],
      method: 'POST',
      path: `${base}/confirm-email-change`,
      access: anyone,
      bodyParams: [param('token', 'String', words('apiDocs.confirmEmailChange.token'), true), param('password', 'String', words('apiDocs.accountPassword'), true)],
      responses: [{ status: 204, body: 'null' }, error(400, 'An error occurred while validating the submitted data.', { token: { code: 'validation_required', message: 'Cannot be blank.' } })],
      sdk: head + `await pb.collection('${name}').confirmEmailChange('EMAIL_CHANGE_TOKEN', 'YOUR_PASSWORD');`,
    },
    {
      ...noBody,
      id: 'list-auth-methods',
      ...page('listAuthMethods'),
      intro: [words('apiDocs.authMethods.intro')],
      method: 'GET',
      path: `${base}/auth-methods`,
      access: anyone,
      queryParams: [param('fields', 'String', words('apiDocs.authMethods.fields'))],
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
      ...page('listLinkedAccounts'),
      intro: [words('apiDocs.linked.intro')],
      method: 'GET',
      path: `${base}/records/:id/external-auths`,
      access: selfAccess,
      pathParams: [param('id', 'String', words('apiDocs.idParam', { name }), true)],
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
      ...page('unlinkAccount'),
      intro: [words('apiDocs.unlink.intro')],
      method: 'DELETE',
      path: `${base}/records/:id/external-auths/:provider`,
      access: selfAccess,
      pathParams: [param('id', 'String', words('apiDocs.idParam', { name }), true), param('provider', 'String', words('apiDocs.unlink.provider'), true)],
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
