// What a field type is, in one declaration per type (src/fields/<type>/field.ts), read by the
// server and the dashboard alike through ./registry.ts. DOM-free and Node-free: no React, no
// Buffer, no ajv (the server's tsconfig checks it without DOM types). The dashboard's drawing
// parts (icon, list cell) sit beside it in <type>/view.tsx, registered by ./views.ts.
import type { FieldType } from '../lib/collections/types';
import type { FieldError } from '../lib/schema/error-tree';

export type JsonSchema = Record<string, unknown>;

/** The field shape a definition reads (the dashboard's and the server's field types both fit). */
/** A phrase of the API docs: a key of the dashboard's words (apiDocs.option.*) and its values. */
export interface DocWord {
  key: string;
  values?: Record<string, string | number>;
}

export interface FieldLike {
  name: string;
  type: string;
  required: boolean;
  options: Record<string, unknown>;
}

/** A file uploaded with a record request, as the checks see it. */
interface UploadLike {
  /** The generated (stored) name. */
  name: string;
  /** The client's name, as sent. */
  originalName: string;
  size: number;
  /** The sniffed content type. */
  contentType: string;
}

/** What the coded checks may ask the server (the dashboard has no such context). */
export interface FieldCheckContext {
  /** How many of `ids` exist in collection `collectionId`; null when there is no such collection. */
  countRecords(collectionId: string, ids: string[]): number | null;
  /** The files uploaded with the request to this field. */
  uploads: readonly UploadLike[];
}

/** A form value turned into the request value (or why it cannot be). */
export type RequestValue = { ok: true; value: unknown } | { ok: false; message: string };

/** Resolves a collection id to its name (the API docs name relation targets). */
type CollectionLookup = (id: string) => { name: string } | undefined;

/** What an export asks for a record's values (absent: the stored value is written). */
interface ExportContext {
  /** A related record's name instead of its id. */
  relationName?(fieldName: string, id: string): string;
  /** A file's URL instead of its name. */
  fileUrl?(name: string): string;
}

/** The Go type of an option as 0.22 decodes it (a pointer type, `?`, keeps null). */
export type OptionKind = 'int' | 'int?' | 'float?' | 'bool' | 'string' | 'strings?' | 'date';

export interface FieldDefinition {
  type: FieldType;
  /** The name the collection editor shows. */
  label: string;
  /**
   * Its values name files uploaded with the record (0.22's file field): they travel as multipart,
   * are deleted as `field.<name>`, are not imported nor bulk edited, and the server stores the bytes.
   */
  uploads?: true;
  /**
   * Its values are ids of records the API can expand (0.22's relation): the records list expands
   * it for its chips, an export for names, the API docs use it in their `expand` examples.
   */
  expandable?: true;
  /** The collection editor's single/multiple switch (select, file, relation). */
  multiple?: {
    /** The options once the switch is flipped. */
    switchTo(options: Record<string, unknown>, multiple: boolean): Record<string, unknown>;
    /** The field keeps the switch's state until saved (a multiple select of one value stays multiple). */
    keepsSwitch?: true;
    /** The options form's rules on `multiple` are checked before saving (maxSelect at least 2). */
    checkedBeforeSave?: true;
  };
  /** 0.22's options struct: each key and its Go type, in struct order (what is stored and returned). */
  optionKinds: ReadonlyArray<readonly [string, OptionKind]>;
  /** A new field's options (PocketBase 0.22's zero values, the dashboard's defaults). */
  defaultOptions(): Record<string, unknown>;
  /** The options of a view collection's field of this type when they differ from defaultOptions (0.22: json's maxSize 1). */
  viewOptions?(): Record<string, unknown>;
  /** The SQLite column definition (0.22's SchemaField.ColDefinition). */
  columnDefinition(field: Pick<FieldLike, 'type' | 'options'>): string;

  // ---- the value (server and import): 0.22's PrepareValue and its column and API forms ----
  /** Any submitted or stored value → the normalised value. */
  prepare(value: unknown, field: Pick<FieldLike, 'type' | 'options'>): unknown;
  /** A stored column value → the normalised value (defaults to prepare). */
  fromColumn?(raw: unknown, field: Pick<FieldLike, 'type' | 'options'>): unknown;
  /** The normalised value → the column value. */
  toColumn(value: unknown): unknown;
  /** The normalised value → the API's value (defaults to a copy of it). */
  toOutput?(value: unknown): unknown;
  /** `field+` / `field-`: the value before normalisation (absent: modifiers change nothing). */
  modify?(base: unknown, modifier: '+' | '-', operand: unknown): unknown;

  // ---- validation (server, dashboard, import) ----
  /** JSON Schema of a non-blank value (0.22's messages and codes); required is the object's. */
  valueSchema(field: FieldLike): JsonSchema;
  /** What JSON Schema cannot say (domains, parsing, uploads, relations); null when fine. */
  check?(value: unknown, field: FieldLike, ctx: FieldCheckContext): FieldError | null;

  // ---- the record editor ----
  record: {
    /** The widget the record editor draws the value with (a name in src/widgets/index.ts). */
    widget: string;
    /** The widget's `ui:options` beyond the ones every field gets. */
    options?(field: FieldLike): Record<string, unknown>;
    /** A help line under the input. */
    help?(field: FieldLike): string | undefined;
    /** The API value → the form's value (`value` is undefined for a new record). */
    toForm(value: unknown, field: FieldLike, isNew: boolean): unknown;
    /** The form's value → the request's (defaults to the value, undefined sent as null). */
    toRequest?(value: unknown, field: FieldLike): RequestValue;
  };

  // ---- the API docs ----
  docs: {
    /** An example value as the API returns it. */
    example(field: FieldLike): unknown;
    /** The value's type as a client sends and reads it. */
    typeLabel(field: FieldLike): string;
    /** The options in words (joined with '; '): keys of the dashboard's words (locales/<lang>/app.json) and their values. */
    describe?(field: FieldLike, lookup: CollectionLookup): DocWord[];
  };

  // ---- records import / export ----
  io: {
    /** A CSV/JSON cell → the value to send (default: text). */
    importCell?(cell: unknown, field: FieldLike): unknown;
    /** A value as exported (default: the value, '' for none). */
    exportValue?(raw: unknown, field: FieldLike, ctx: ExportContext): unknown;
    /** A value as one CSV cell (default: lists joined with ',', objects as JSON). */
    csvCell?(value: unknown): string | number | boolean;
  };

  // ---- the records list ----
  list?: {
    /** Sorting by it makes no sense (files, JSON). */
    unsortable?: true;
    /** A plain search term is matched against it (it holds text). */
    searchable?: true;
    /** The list asks for an excerpt of it (long HTML). */
    excerpt?: true;
    /** Its values are instants, shown in the admin's chosen zone: the column header names the zone. */
    instants?: true;
  };
}
