// `$mails.*` from a hook executor (worker/namespaces/mails.ts), answered on the main thread with
// the mails the API sends (records/auth-mails.ts), the mailer hooks included. The handler waits
// for the answer (0.22's calls block until the mail is sent), the main thread does not: the reply
// is posted once the mail has gone (rpc.ts answers a promise when it settles). Inside
// runInTransaction the main thread serves the executor synchronously and cannot wait for a mail
// server, so the call fails there with a message saying so.
import type { AppContext } from '../context';
import { findCollection } from '../collections/store';
import { findAuthRowById } from '../records/auth-store';
import { mailAdminPasswordReset, mailRecordEmailChange, mailRecordPasswordReset, mailRecordVerification } from '../records/auth-mails';
import { recordFromRow, type RecordModel } from '../records/model';
import type { RecordWire } from './protocol';
import { wireCollectionKey } from './record-wire';
import type { RpcServer } from './rpc';

/** The saved auth record a hook passed (its address as the hook has it, as 0.22 sends to it). */
function authRecordOf(ctx: AppContext, what: string, model: unknown): RecordModel {
  const wire = (model as { __model?: string; record?: RecordWire } | null)?.__model === 'record' ? (model as { record: RecordWire }).record : null;
  if (!wire) throw new Error(`${what}: the second argument must be a Record`);
  const ref = wireCollectionKey(wire);
  const collection = typeof ref === 'string' ? findCollection(ctx, ref) : undefined;
  if (!collection || collection.type !== 'auth') throw new Error(`${what}: the record must be of an auth collection`);
  const row = findAuthRowById(ctx, collection, String(wire.data.id ?? ''));
  if (!row) throw new Error(`${what}: the record must be saved first (no ${collection.name} record with id "${String(wire.data.id ?? '')}")`);
  const record = recordFromRow(collection, row);
  if (typeof wire.data.email === 'string' && wire.data.email) record.data.email = wire.data.email;
  return record;
}

/** Sends the mail `kind` names; the promise settles once it is sent. */
export function sendHookMail(ctx: AppContext, server: RpcServer, kind: unknown, args: unknown[]): Promise<null> {
  const what = `$mails.${String(kind)}()`;
  if (server.synchronous) {
    throw new Error(`${what} cannot be used inside runInTransaction: the transaction cannot wait for the mail server (send it after the transaction)`);
  }
  const [model, newEmail] = args;
  switch (kind) {
    case 'sendRecordVerification':
      return mailRecordVerification(ctx, authRecordOf(ctx, what, model)).then(() => null);
    case 'sendRecordPasswordReset':
      return mailRecordPasswordReset(ctx, authRecordOf(ctx, what, model)).then(() => null);
    case 'sendRecordChangeEmail':
      if (typeof newEmail !== 'string' || !newEmail) throw new Error(`${what}: the new email address is missing`);
      return mailRecordEmailChange(ctx, authRecordOf(ctx, what, model), newEmail).then(() => null);
    case 'sendAdminPasswordReset': {
      const json = (model as { __model?: string; json?: { id?: unknown } } | null)?.__model === 'admin' ? (model as { json: { id?: unknown } }).json : null;
      if (!json) throw new Error(`${what}: the second argument must be an Admin`);
      const admin = ctx.admins.findById(String(json.id ?? ''));
      if (!admin) throw new Error(`${what}: the admin must be saved first`);
      return mailAdminPasswordReset(ctx, admin).then(() => null);
    }
  }
  throw new Error(`${what} is not supported`);
}
