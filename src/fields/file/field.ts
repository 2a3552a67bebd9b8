// File: stored file names (one, or up to maxSelect), each upload checked for size and real type.
import { toUniqueStrings } from '../shared/casts';
import { listToColumn, listToForm, prepareList, toList } from '../shared/lists';
import { DEFAULT_FILE_MAX_SIZE, isMultiple, listSchema, maxSelectOf, num, setNumber, strings } from '../shared/schema';
import { fieldError } from '../shared/text-like';
import type { DocWord, FieldDefinition } from '../types';
import { fieldTypeGuard } from '../shared/kind';

/** A file field: its values name files stored with the record. */
export const isFileField = fieldTypeGuard('file');

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

/** mimetype.Is: the detected type (without parameters) or one of its aliases equals an allowed one. */
function mimeMatches(detected: string, allowed: string[]): boolean {
  const base = detected.split(';')[0].trim().toLowerCase();
  const aliases = MIME_ALIASES[base] ?? [];
  return allowed.some((a) => {
    const t = a.split(';')[0].trim().toLowerCase();
    return t === base || aliases.includes(t);
  });
}

export const file: FieldDefinition = {
  type: 'file',
  label: 'File',
  uploads: true,
  // multiple: the current maximum when above 1, else 99
  multiple: {
    switchTo(options, multiple) {
      const current = typeof options.maxSelect === 'number' ? options.maxSelect : 0;
      return { ...options, maxSelect: multiple ? (current > 1 ? current : 99) : 1 };
    },
    checkedBeforeSave: true,
  },
  optionKinds: [['mimeTypes', 'strings?'], ['thumbs', 'strings?'], ['maxSelect', 'int'], ['maxSize', 'int'], ['protected', 'bool']],
  defaultOptions: () => ({ mimeTypes: [], thumbs: [], maxSelect: 1, maxSize: DEFAULT_FILE_MAX_SIZE, protected: false }),
  columnDefinition: (field) => (isMultiple(field) ? "JSON DEFAULT '[]' NOT NULL" : "TEXT DEFAULT '' NOT NULL"),
  prepare: prepareList,
  toColumn: listToColumn,
  // files are added by upload only: `field+` changes nothing, `field-` removes names
  modify(base, modifier, operand) {
    if (modifier === '+') return base;
    const remove = new Set(toUniqueStrings(operand));
    return toUniqueStrings(base).filter((v) => !remove.has(v));
  },
  valueSchema: (field) => listSchema(field, { type: 'string' }),
  check(value, field, ctx) {
    const names = toUniqueStrings(value);
    if (names.length === 0) return null;
    const maxSize = Number(field.options.maxSize) > 0 ? Number(field.options.maxSize) : DEFAULT_FILE_MAX_SIZE;
    const mimeTypes = strings(field.options.mimeTypes);
    for (const upload of ctx.uploads.filter((f) => names.includes(f.name))) {
      if (upload.size > maxSize) {
        return fieldError('validation_file_size_limit', `Failed to upload ${JSON.stringify(upload.originalName)} - the maximum allowed file size is ${maxSize} bytes.`);
      }
      if (mimeTypes.length > 0 && !mimeMatches(upload.contentType, mimeTypes)) {
        return fieldError('validation_invalid_mime_type', `${JSON.stringify(upload.name)} mime type must be one of: ${mimeTypes.join(', ')}.`);
      }
    }
    return null;
  },
  record: {
    widget: 'recordFile',
    options(field) {
      const o = field.options;
      return {
        multiple: isMultiple(field),
        maxSelect: maxSelectOf(field),
        maxSize: num(o.maxSize) || DEFAULT_FILE_MAX_SIZE,
        mimeTypes: Array.isArray(o.mimeTypes) ? o.mimeTypes : [],
        accept: strings(o.mimeTypes).join(','),
        thumbs: Array.isArray(o.thumbs) ? o.thumbs : [],
        protected: !!o.protected,
      };
    },
    toForm: listToForm,
  },
  docs: {
    example: (field) => (isMultiple(field) ? ['filename_a1b2c3d4e5.jpg'] : 'filename_a1b2c3d4e5.jpg'),
    typeLabel: (field) => (isMultiple(field) ? 'Array<File>' : 'File'),
    describe(field) {
      const o = field.options;
      const parts: DocWord[] = [];
      if (isMultiple(field)) parts.push({ key: 'apiDocs.option.maxFiles', values: { max: maxSelectOf(field) ?? 1 } });
      const size = setNumber(o.maxSize);
      if (size !== null) parts.push({ key: isMultiple(field) ? 'apiDocs.option.maxBytesEach' : 'apiDocs.option.maxBytes', values: { size } });
      const mimes = strings(o.mimeTypes);
      if (mimes.length) parts.push({ key: 'apiDocs.option.mimeTypes', values: { types: mimes.join(', ') } });
      if (o.protected) parts.push({ key: 'apiDocs.option.protected' });
      return parts;
    },
  },
  io: {
    exportValue(raw, field, ctx) {
      let items = toList(raw).map(String);
      if (ctx.fileUrl) items = items.map(ctx.fileUrl);
      return isMultiple(field) ? items : (items[0] ?? '');
    },
  },
  list: { unsortable: true, searchable: true },
};
