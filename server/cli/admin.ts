// `outpost admin create|update|delete`: PocketBase 0.22's cmd/admin.go against --dir, with its
// messages. Like 0.22, a refused action prints "Error: …" on stderr and still exits 0 (0.22 ignores
// a command's error; deploy scripts that run `admin create` on every deploy rely on it); only an
// unknown sub-command or a pb_data that cannot be opened (e.g. a wrong settings key) exits non-zero.
import { nowDateTime } from '../db/layout';
import { isEmailAddress } from '../../src/lib/email-address';
import { createAdminStore, type AdminStore } from '../services/admins';
import { createRoleStore, type RoleStore } from '../roles/store';
import { hashPassword, newId, newTokenKey } from '../services/passwords';
import type { CliCommand, GlobalFlags } from './command';
import { openDataDir } from './data-dir';

const color = (code: number, text: string) => (process.stdout.isTTY ? `\x1b[${code}m${text}\x1b[0m` : text);
const green = (text: string) => console.log(color(32, text));
const yellow = (text: string) => console.log(color(33, text));

/** A refused action: printed as cobra prints a command's error. */
class Refused extends Error {}

const validEmail = (email: string | undefined): email is string => !!email && isEmailAddress(email);

interface Stores {
  admins: AdminStore;
  roles: RoleStore;
}

async function create({ admins }: Stores, [email, password]: string[], argc: number): Promise<void> {
  if (argc !== 2) throw new Refused('Missing email and password arguments.');
  if (!validEmail(email)) throw new Refused('Missing or invalid email address.');
  if (Buffer.byteLength(password) < 8) throw new Refused('The password must be at least 8 chars long.');
  const now = nowDateTime();
  const row = { id: newId(), avatar: 0, email, tokenKey: newTokenKey(), passwordHash: await hashPassword(password), lastResetSentAt: '', created: now, updated: now };
  try {
    admins.insert(row);
  } catch (err) {
    throw new Refused(`Failed to create new admin account: ${err instanceof Error ? err.message : String(err)}`);
  }
  green(`Successfully created new admin ${email}!`);
}

async function update({ admins }: Stores, [email, password]: string[], argc: number): Promise<void> {
  if (argc !== 2) throw new Refused('Missing email and password arguments.');
  if (!validEmail(email)) throw new Refused('Missing or invalid email address.');
  if (Buffer.byteLength(password) < 8) throw new Refused('The new password must be at least 8 chars long.');
  const admin = admins.findByEmail(email);
  if (!admin) throw new Refused(`Admin with email ${email} doesn't exist.`);
  // a new password renews the tokenKey (0.22's SetPassword): every token issued before is revoked
  const passwordHash = await hashPassword(password);
  try {
    admins.setPasswordHash(admin.id, passwordHash, newTokenKey(), nowDateTime());
  } catch (err) {
    throw new Refused(`Failed to change admin ${admin.email} password: ${err instanceof Error ? err.message : String(err)}`);
  }
  green(`Successfully changed admin ${admin.email} password!`);
}

function remove({ admins, roles }: Stores, [email]: string[]): void {
  if (!validEmail(email)) throw new Refused('Invalid or missing email address.');
  const admin = admins.findByEmail(email);
  if (!admin) {
    yellow(`Admin ${email} is already deleted.`);
    return;
  }
  const failed = (reason: string) => new Refused(`Failed to delete admin ${admin.email}: ${reason}`);
  if (admins.count() === 1) throw failed('you cannot delete the only existing admin');
  // Outpost's roles: the admins left would all be scoped, and none could manage admins or roles
  if (!roles.roleOf(admin.id) && roles.fullAdmins() <= 1) throw failed('it is the last full admin (the others hold roles): make another admin a full admin first');
  try {
    admins.delete(admin.id);
  } catch (err) {
    throw failed(err instanceof Error ? err.message : String(err));
  }
  green(`Successfully deleted admin ${admin.email}!`);
}

const SUBCOMMANDS: Record<string, (stores: Stores, args: string[], argc: number) => void | Promise<void>> = { create, update, delete: remove };

async function runSubcommand(name: string, args: string[], flags: GlobalFlags): Promise<number> {
  let data;
  try {
    data = openDataDir(flags);
  } catch (err) {
    console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  try {
    await SUBCOMMANDS[name]({ admins: createAdminStore(data.db), roles: createRoleStore(data.db) }, args, args.length);
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    console.error(`Error: ${err.message}`);
  } finally {
    data.close();
  }
  return 0;
}

export const adminCommand: CliCommand = {
  name: 'admin',
  summary: 'Manages admin accounts',
  help: [
    'Usage:',
    '  outpost admin create EMAIL PASSWORD   Creates a new admin account',
    '  outpost admin update EMAIL PASSWORD   Changes the password of a single admin account',
    '  outpost admin delete EMAIL            Deletes an existing admin account',
    '',
    'Examples:',
    '  outpost admin create test@example.com 1234567890',
    '  outpost admin update test@example.com 1234567890',
    '  outpost admin delete test@example.com',
  ].join('\n'),
  async run({ args, flags }) {
    const [name, ...rest] = args;
    if (!name) {
      console.log(this.help);
      return 0;
    }
    if (!(name in SUBCOMMANDS)) {
      console.error(`Error: unknown command "${name}" for "outpost admin"\nRun 'outpost admin --help' for usage.`);
      return 2;
    }
    return runSubcommand(name, rest, flags);
  },
};
