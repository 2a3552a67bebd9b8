// `$tokens` as 0.22 binds its tokens package: `recordAuthToken($app, record)`, ... each a JWT with
// 0.22's claims, signed by the main thread with the server's own token code (the secret of the
// token kind in the settings plus the model's tokenKey), so the API accepts what a hook issues.
import { namespace } from '../../../migrations/js-unsupported';
import { toWire } from '../../models-wire';
import type { Call } from '../app';

const KINDS = [
  'adminAuthToken',
  'adminResetPasswordToken',
  'adminFileToken',
  'recordAuthToken',
  'recordVerifyToken',
  'recordResetPasswordToken',
  'recordChangeEmailToken',
  'recordFileToken',
] as const;

export function tokensNamespace(call: Call): object {
  const sign = (kind: string) => (_app: unknown, model: unknown, newEmail?: unknown) => String(call('tokens', [kind, toWire(model), newEmail ?? null]));
  return namespace('$tokens', Object.fromEntries(KINDS.map((k) => [k, sign(k)])));
}
