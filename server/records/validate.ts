// Record field validation as 0.22 does it (forms/validators/record_data.go): `required` means a
// non-zero value, then the checks of the field's type and options; the first failure per field
// is reported as {code, message}. Both halves are the field types' own (src/fields/<type>/field.ts):
// the JSON Schema of their values (run by ./schema-validate.ts), then their coded checks, which
// get the store's answers (relations that must exist) and the request's uploads from here.
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import { fieldDefinition } from '../../src/fields/registry';
import type { FieldCheckContext } from '../../src/fields/types';
import { sortKeys } from '../../src/lib/json';
import type { FieldError } from '../../src/lib/schema/error-tree';
import { schemaFieldErrors } from './schema-validate';
import { countExisting } from './store';

export type FieldErrors = Record<string, FieldError>;
export { sentenize } from '../../src/fields/shared/text-like';

export interface UploadedFile {
  /** The generated (stored) name. */
  name: string;
  /** The client's name, as sent. */
  originalName: string;
  data: Buffer;
  /** The sniffed content type (from the bytes, never from the client). */
  contentType: string;
}

/** RecordDataValidator.Validate over every schema field of `data`: the schema's checks, then the coded ones. */
export function validateRecordData(ctx: AppContext, collection: Collection, data: Record<string, unknown>, uploads: Map<string, UploadedFile[]>): FieldErrors {
  const errors: FieldErrors = schemaFieldErrors(collection, data);
  const countRecords = (collectionId: string, ids: string[]) => {
    const target = findCollection(ctx, collectionId);
    return target ? countExisting(ctx, target, ids) : null;
  };
  for (const field of collection.schema) {
    const check = fieldDefinition(field.type).check;
    if (!check || !Object.hasOwn(data, field.name) || errors[field.name]) continue;
    const files = (uploads.get(field.name) ?? []).map((f) => ({ name: f.name, originalName: f.originalName, size: f.data.length, contentType: f.contentType }));
    const context: FieldCheckContext = { countRecords, uploads: files };
    const e = check(data[field.name], field, context);
    if (e) errors[field.name] = e;
  }
  return sortKeys(errors);
}
