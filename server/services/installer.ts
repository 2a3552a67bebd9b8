// The installer link printed while no admin exists.
import type { AppContext } from '../context';

export function installerHint(ctx: AppContext, baseUrl: string): string | null {
  return ctx.admins.hasAny() ? null : `${baseUrl}/_/?installer#`;
}
