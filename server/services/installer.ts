// The installer link printed while no admin exists.
import type { AppContext } from '../context';

function hasAdmins(ctx: AppContext): boolean {
  try {
    return Boolean(ctx.db.prepare('SELECT 1 FROM _admins LIMIT 1').get());
  } catch {
    return false;
  }
}

export function installerHint(ctx: AppContext, baseUrl: string): string | null {
  return hasAdmins(ctx) ? null : `${baseUrl}/_/?installer#`;
}
