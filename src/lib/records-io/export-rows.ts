/**
 * Records export, the pure part: which columns a collection exports and how each value is written
 * (relations as ids or their presentable names, files as names or URLs, dates as the API returns
 * them, i.e. 0.22's `2006-01-02 15:04:05.000Z`). Each page of records becomes one text chunk, so the
 * caller can write it out and drop the records (nothing parsed is held between pages).
 *
 * Pure module: no React, no DOM.
 */
import Papa from 'papaparse';
import type { CollectionModel } from '../collections/types';
import { fileUrl, relationLabel, toList, type RecordLike } from '../records/format';
import { fieldDefinition } from '../../fields/registry';
import { FORMULA_CELL } from './csv-formulas';

export type ExportFormat = 'csv' | 'json';

export interface ExportOptions {
  format: ExportFormat;
  /** Relations as the related records' presentable values instead of ids. */
  relationNames: boolean;
  /** Files as absolute URLs instead of stored names. */
  fileUrls: boolean;
  /** The API's base URL (for file URLs). */
  baseUrl: string;
}

export interface ExportColumn {
  name: string;
  type: string;
  field: CollectionModel['schema'][number] | null;
}

/** Records fetched per request while exporting (the API's largest page). */
export const EXPORT_PAGE_SIZE = 500;
/** List requests an export keeps in flight (results are still written in order). */
export const EXPORT_REQUESTS_IN_FLIGHT = 3;
/** Ids per filter when exporting a selection (keeps the filter short). */
export const EXPORT_IDS_PER_REQUEST = 100;
/** Ids per request to Outpost's records-by-ids (its largest). */
export const EXPORT_IDS_PER_FETCH = 500;

const AUTH_COLUMNS = ['username', 'email', 'emailVisibility', 'verified'];

/** id, the auth fields, the schema fields, created/updated (a view has only id and its fields). */
export function exportColumns(collection: Pick<CollectionModel, 'type' | 'schema'>): ExportColumn[] {
  const cols: ExportColumn[] = [{ name: 'id', type: 'text', field: null }];
  if (collection.type === 'auth') for (const n of AUTH_COLUMNS) cols.push({ name: n, type: n === 'emailVisibility' || n === 'verified' ? 'bool' : 'text', field: null });
  for (const f of collection.schema ?? []) cols.push({ name: f.name, type: f.type, field: f });
  if (collection.type !== 'view') cols.push({ name: 'created', type: 'date', field: null }, { name: 'updated', type: 'date', field: null });
  return cols;
}

/** The `expand` an export needs (relation names only). */
export function exportExpand(collection: Pick<CollectionModel, 'schema'>, opts: Pick<ExportOptions, 'relationNames'>): string {
  if (!opts.relationNames) return '';
  return (collection.schema ?? []).filter((f) => fieldDefinition(f.type).expandable).map((f) => f.name).join(',');
}

/** One value as exported (its type's export conversion): scalars as they are, multiple values as arrays (CSV joins them). */
function exportValue(
  record: RecordLike,
  column: ExportColumn,
  collection: Pick<CollectionModel, 'id'>,
  opts: ExportOptions,
  collectionsById: ReadonlyMap<string, CollectionModel>,
): unknown {
  const raw = record[column.name];
  const f = column.field;
  const convert = f ? fieldDefinition(f.type).io.exportValue : undefined;
  if (!f || !convert) return raw ?? '';
  let expanded: Map<string, RecordLike> | undefined;
  const relationName = (fieldName: string, id: string) => {
    expanded ??= new Map(toList<RecordLike>(record.expand?.[fieldName]).map((r) => [String(r.id), r]));
    const hit = expanded.get(id);
    return hit ? relationLabel(hit, collectionsById.get(String(f.options?.collectionId ?? ''))) : id;
  };
  const url = (name: string) => fileUrl(opts.baseUrl, String(record.collectionId ?? collection.id), String(record.id ?? ''), name);
  return convert(raw, { ...f, options: f.options ?? {} }, { relationName: opts.relationNames ? relationName : undefined, fileUrl: opts.fileUrls ? url : undefined });
}

/** A value as one CSV cell: lists joined with ',', JSON as its text, null as ''. */
function csvCell(value: unknown, column: ExportColumn): string | number | boolean {
  const own = fieldDefinition(column.type).io.csvCell;
  if (own) return own(value);
  if (Array.isArray(value)) return value.join(',');
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The text that opens an export (CSV header line, or '[' of the JSON array). */
export function exportHead(columns: readonly ExportColumn[], format: ExportFormat): string {
  return format === 'csv' ? Papa.unparse([columns.map((c) => c.name)]) + '\r\n' : '[';
}

/** The text that closes an export. */
export function exportTail(format: ExportFormat, written: number): string {
  return format === 'csv' ? '' : written ? '\n]\n' : ']\n';
}

/** One page of records as text; `written` is how many records came before (JSON separators). */
export function exportChunk(
  records: readonly RecordLike[],
  columns: readonly ExportColumn[],
  collection: Pick<CollectionModel, 'id'>,
  opts: ExportOptions,
  collectionsById: ReadonlyMap<string, CollectionModel>,
  written: number,
): string {
  if (records.length === 0) return '';
  if (opts.format === 'csv') {
    const rows = records.map((r) => columns.map((c) => csvCell(exportValue(r, c, collection, opts, collectionsById), c)));
    return Papa.unparse(rows, { header: false, newline: '\r\n', escapeFormulae: FORMULA_CELL }) + '\r\n';
  }
  let out = '';
  records.forEach((r, i) => {
    const obj: Record<string, unknown> = {};
    for (const c of columns) obj[c.name] = exportValue(r, c, collection, opts, collectionsById);
    out += (written + i === 0 ? '\n' : ',\n') + JSON.stringify(obj);
  });
  return out;
}

/** `id="a" || id="b"` for a list of ids (quotes escaped). */
export function idsFilter(ids: readonly string[]): string {
  return ids.map((id) => `id="${id.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(' || ');
}

/** The file name of an export: `<collection>_<yyyymmdd-hhmmss>.<ext>`. */
export function exportFileName(collectionName: string, format: ExportFormat, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${collectionName}_${stamp}.${format}`;
}
