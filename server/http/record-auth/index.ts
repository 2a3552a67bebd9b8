// Record auth under /api/collections/{collection}/ (PocketBase 0.22's apis/record_auth.go and the
// forms it drives), one module per flow: sign-in, verification, password reset, email change and
// the OAuth2 links of a record. Messages, field error codes and status codes follow 0.22; beyond
// it, failed sign-ins are rate limited per IP + collection + identity, and an account's OAuth2
// links are dropped when its email gets confirmed or changed.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerEmailChange } from './email-change';
import { registerExternalAuths } from './external-auths';
import { registerPasswordReset } from './password-reset';
import { registerSignIn } from './sign-in';
import { registerVerification } from './verification';

export function registerRecordAuth(app: FastifyInstance, ctx: AppContext): void {
  registerSignIn(app, ctx);
  registerVerification(app, ctx);
  registerPasswordReset(app, ctx);
  registerEmailChange(app, ctx);
  registerExternalAuths(app, ctx);
}
