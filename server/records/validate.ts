// Record field validation as 0.22 does it (forms/validators/record_data.go): `required` means a
// non-zero value, then the checks of the field's type and options; the first failure per field
// is reported as {code, message} (messages sentenized like 0.22's API errors).
//
// The checks JSON Schema can express (types, text lengths and patterns, number limits, select
// values, how many items, the e-mail shape, required) come from the dashboard's generated record
// schema (src/lib/record-schema.ts, run by ./schema-validate.ts); this file keeps the rest: url
// shape, e-mail/url domains, date limits, JSON parsing and size, file size and real type, and
// relations that must exist.
import { jsonTooDeep } from '../core/json-depth';
import type { AppContext } from '../context';
import type { Collection, SchemaField } from '../collections/model';
import { findCollection } from '../collections/store';
import { isEmailAddress } from '../core/field-rules';
import { usablePattern } from '../../src/lib/record-schema';
import { schemaFieldErrors } from './schema-validate';
import { countExisting } from './store';
import { toUniqueStrings, type RecordData } from './values';
import { sortKeys } from '../../src/lib/json';

interface FieldError {
  code: string;
  message: string;
}
export type FieldErrors = Record<string, FieldError>;

export interface UploadedFile {
  /** The generated (stored) name. */
  name: string;
  /** The client's name, as sent. */
  originalName: string;
  data: Buffer;
  /** The sniffed content type (from the bytes, never from the client). */
  contentType: string;
}

/** Go's inflector.Sentenize: capital first letter, a full stop at the end. */
export function sentenize(s: string): string {
  const t = s.trim();
  if (t === '') return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : first + '.';
}

const err = (code: string, message: string): FieldError => ({ code, message: sentenize(message) });

const requiredErr = () => err('validation_required', 'Missing required value');

/** Go's time.Time String() for a UTC time: `2006-01-02 15:04:05[.fff] +0000 UTC`. */
function goTime(stored: string): string {
  const m = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\.(\d{3})Z$/.exec(stored);
  if (!m) return stored;
  const frac = m[2].replace(/0+$/, '');
  return `${m[1]}${frac ? '.' + frac : ''} +0000 UTC`;
}

const DEFAULT_JSON_MAX = 2_000_000;
const DEFAULT_FILE_MAX = 5 << 20;

/** A text pattern the schema could not carry (not a valid JS regexp in every mode). */
function checkTextPattern(field: SchemaField, value: unknown): FieldError | null {
  const val = typeof value === 'string' ? value : '';
  const o = field.options;
  if (val === '' || typeof o.pattern !== 'string' || o.pattern === '' || usablePattern(o.pattern)) return null;
  let ok = false;
  try {
    ok = new RegExp(o.pattern).test(val);
  } catch {
    ok = false;
  }
  return ok ? null : err('validation_invalid_format', 'Invalid value format');
}

const domainIn = (domain: string, list: unknown) => Array.isArray(list) && list.length > 0 && list.includes(domain);
const hasList = (list: unknown) => Array.isArray(list) && list.length > 0;

function checkEmailDomain(field: SchemaField, value: unknown): FieldError | null {
  const val = typeof value === 'string' ? value : '';
  if (val === '' || !isEmailAddress(val)) return null; // the shape is the schema's
  const domain = val.slice(val.lastIndexOf('@') + 1);
  const o = field.options;
  if (hasList(o.onlyDomains) && !domainIn(domain, o.onlyDomains)) return err('validation_email_domain_not_allowed', 'Email domain is not allowed');
  if (hasList(o.exceptDomains) && domainIn(domain, o.exceptDomains)) return err('validation_email_domain_not_allowed', 'Email domain is not allowed');
  return null;
}

const HOST_LABEL = /^[A-Za-z0-9\u00a1-\uffff](?:[A-Za-z0-9\u00a1-\uffff_-]{0,62})?$/;

/** Close to govalidator.IsURL (what is.URL uses): the scheme is optional, a real host is not. */
function isUrl(val: string): boolean {
  if (val.length > 2083 || /\s/.test(val) || val.startsWith('.')) return false;
  const hasScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(val);
  if (!hasScheme && val.includes('://')) return false;
  let u: URL;
  try {
    u = new URL(hasScheme ? val : `http://${val}`);
  } catch {
    return false;
  }
  if (hasScheme && !['http:', 'https:', 'ftp:', 'ws:', 'wss:', 'irc:', 'rtmp:', 'rtsp:', 'udp:', 'tcp:', 'git:', 'ssh:', 'sftp:', 'file:', 'mailto:'].includes(u.protocol)) {
    // govalidator allows any scheme of letters; keep to the common ones
    if (!/^[a-z]+:$/.test(u.protocol)) return false;
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':')) return true;
  const labels = host.split('.');
  if (labels.length < 2) return false;
  return labels.every((l) => l !== '' && HOST_LABEL.test(l) && !l.startsWith('-') && !l.endsWith('-'));
}

function checkUrl(field: SchemaField, value: unknown): FieldError | null {
  const val = typeof value === 'string' ? value : '';
  if (val === '') return null;
  if (!isUrl(val)) return err('validation_invalid_url', 'Must be a valid url');
  let host = '';
  try {
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(val)) host = new URL(val).host;
  } catch {
    host = '';
  }
  const o = field.options;
  if (hasList(o.onlyDomains) && !domainIn(host, o.onlyDomains)) return err('validation_url_domain_not_allowed', 'Url domain is not allowed');
  if (hasList(o.exceptDomains) && domainIn(host, o.exceptDomains)) return err('validation_url_domain_not_allowed', 'Url domain is not allowed');
  return null;
}

function checkDate(field: SchemaField, value: unknown): FieldError | null {
  const val = typeof value === 'string' ? value : '';
  if (val === '') return null;
  const o = field.options;
  if (typeof o.min === 'string' && o.min !== '' && val < o.min) {
    return err('validation_min_greater_equal_than_required', `must be no less than ${goTime(o.min)}`);
  }
  if (typeof o.max === 'string' && o.max !== '' && val > o.max) {
    return err('validation_max_less_equal_than_required', `must be no greater than ${goTime(o.max)}`);
  }
  return null;
}

const EMPTY_JSON = ['null', '""', '[]', '{}'];

function checkJson(field: SchemaField, value: unknown): FieldError | null {
  const raw = value === null || value === undefined ? '' : String(value);
  if (raw !== '') {
    try {
      if (jsonTooDeep(raw)) throw new SyntaxError('too deep');
      JSON.parse(raw);
    } catch {
      return err('validation_invalid_json', 'Must be a valid json value');
    }
  }
  const max = Number(field.options.maxSize) > 0 ? Number(field.options.maxSize) : DEFAULT_JSON_MAX;
  if (Buffer.byteLength(raw) > max) return err('validation_json_size_limit', `The maximum allowed JSON size is ${max} bytes`);
  if (field.required && (raw === '' || EMPTY_JSON.includes(raw.trim()))) return requiredErr();
  return null;
}

function checkFile(field: SchemaField, value: unknown, uploaded: UploadedFile[]): FieldError | null {
  const names = toUniqueStrings(value);
  if (names.length === 0) return null;
  const maxSize = Number(field.options.maxSize) > 0 ? Number(field.options.maxSize) : DEFAULT_FILE_MAX;
  const mimeTypes = Array.isArray(field.options.mimeTypes) ? (field.options.mimeTypes as string[]) : [];
  for (const file of uploaded.filter((f) => names.includes(f.name))) {
    if (file.data.length > maxSize) {
      return err('validation_file_size_limit', `Failed to upload ${JSON.stringify(file.originalName)} - the maximum allowed file size is ${maxSize} bytes.`);
    }
    if (mimeTypes.length > 0 && !mimeMatches(file.contentType, mimeTypes)) {
      return err('validation_invalid_mime_type', `${JSON.stringify(file.name)} mime type must be one of: ${mimeTypes.join(', ')}.`);
    }
  }
  return null;
}

/** mimetype.Is: the detected type (without parameters) or one of its aliases equals an allowed one. */
function mimeMatches(detected: string, allowed: string[]): boolean {
  const base = detected.split(';')[0].trim().toLowerCase();
  const aliases = MIME_ALIASES[base] ?? [];
  return allowed.some((a) => {
    const t = a.split(';')[0].trim().toLowerCase();
    return t === base || aliases.includes(t);
  });
}

const MIME_ALIASES: Record<string, string[]> = {
  'image/jpeg': ['image/jpg', 'image/pjpeg'],
  'image/x-icon': ['image/vnd.microsoft.icon'],
  'application/zip': ['application/x-zip', 'application/x-zip-compressed'],
  'text/xml': ['application/xml'],
  'application/xml': ['text/xml'],
  'application/json': ['text/json'],
  'audio/mpeg': ['audio/mp3', 'audio/x-mpeg'],
  'application/gzip': ['application/x-gzip', 'application/x-gunzip', 'application/gzipped'],
};

/** Relation checks; the existence check is one COUNT per field. */
function checkRelation(ctx: AppContext, field: SchemaField, value: unknown): FieldError | null {
  const ids = toUniqueStrings(value);
  if (ids.length === 0) return null;
  const o = field.options;
  const target = findCollection(ctx, String(o.collectionId ?? ''));
  if (!target) return err('validation_missing_rel_collection', 'Relation connection is missing or cannot be accessed');
  if (countExisting(ctx, target, ids) !== ids.length) {
    return err('validation_missing_rel_records', 'Failed to find all relation records with the provided ids');
  }
  return null;
}

/** RecordDataValidator.Validate over every schema field of `data`: the schema's checks, then the coded ones. */
export function validateRecordData(
  ctx: AppContext,
  collection: Collection,
  data: RecordData,
  uploads: Map<string, UploadedFile[]>,
): FieldErrors {
  const errors: FieldErrors = schemaFieldErrors(collection, data);
  for (const field of collection.schema) {
    if (!Object.hasOwn(data, field.name) || errors[field.name]) continue;
    const value = data[field.name];
    let e: FieldError | null = null;
    switch (field.type) {
      case 'text':
        e = checkTextPattern(field, value);
        break;
      case 'email':
        e = checkEmailDomain(field, value);
        break;
      case 'url':
        e = checkUrl(field, value);
        break;
      case 'date':
        e = checkDate(field, value);
        break;
      case 'json':
        e = checkJson(field, value);
        break;
      case 'file':
        e = checkFile(field, value, uploads.get(field.name) ?? []);
        break;
      case 'relation':
        e = checkRelation(ctx, field, value);
        break;
      default:
        break;
    }
    if (e) errors[field.name] = e;
  }
  return sortKeys(errors);
}
