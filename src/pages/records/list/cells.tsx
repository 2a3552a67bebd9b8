// Record field values in list cells and the preview panel: dates, truncated
// text, relation chips, file thumbs with an icon fallback, JSON excerpts, bools, select chips.
import { memo, useState } from 'react';
import { pb } from '../../../api/client';
import { CopyButton } from '../../../ui/CopyButton';
import type { CollectionModel } from '../../../lib/collections/types';
import {
  dateTooltip,
  DEFAULT_THUMB,
  fileKind,
  fileUrl,
  formatDate,
  hasThumb,
  isEmptyValue,
  jsonExcerpt,
  JSON_PREVIEW_MAX,
  limitList,
  MAX_LIST_ITEMS,
  MAX_RELATION_CHIPS,
  plainText,
  relationChips,
  toList,
  truncate,
  TRUNCATE_DEFAULT,
  TRUNCATE_TOOLTIP,
  type ColumnDef,
  type RecordLike,
} from '../../../lib/records/format';

export type CellContext = {
  collection: CollectionModel;
  /** Collections by id (relation targets). */
  collectionsById: ReadonlyMap<string, CollectionModel>;
  /** Admin file token for protected files ('' until fetched). */
  fileToken: string;
};

const NA = <span className="txt-hint">N/A</span>;

function FileIcon({ name }: { name: string }) {
  const kind = fileKind(name);
  const label = kind === 'image' ? 'IMG' : kind === 'video' ? 'VID' : kind === 'audio' ? 'AUD' : kind === 'document' ? 'DOC' : 'FILE';
  return (
    <span className="rl-file-icon" aria-hidden="true">
      {label}
    </span>
  );
}

function FileThumb({ record, name, protectedFile, ctx, size = DEFAULT_THUMB }: { record: RecordLike; name: string; protectedFile: boolean; ctx: CellContext; size?: string }) {
  const [failed, setFailed] = useState(false);
  const collectionId = String(record.collectionId ?? ctx.collection.id);
  const token = protectedFile ? ctx.fileToken : '';
  const canThumb = hasThumb(name) && !failed && (!protectedFile || !!token);
  const href = fileUrl(pb.baseUrl, collectionId, String(record.id ?? ''), name, { token: token || undefined });
  return (
    <a
      className="rl-file-thumb"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={name}
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => e.stopPropagation()}
    >
      {canThumb ? (
        <img
          src={fileUrl(pb.baseUrl, collectionId, String(record.id ?? ''), name, { thumb: size, token: token || undefined })}
          alt={name}
          loading="lazy"
          decoding="async"
          onError={() => setFailed(true)}
        />
      ) : (
        <FileIcon name={name} />
      )}
    </a>
  );
}

function Chips({ items, more, className }: { items: Array<{ key: string; label: string; title?: string; missing?: boolean }>; more: number; className?: string }) {
  return (
    <span className={`rl-chips${className ? ' ' + className : ''}`}>
      {items.map((c) => (
        <span key={c.key} className={`rl-chip${c.missing ? ' rl-chip-missing' : ''}`} title={c.title ?? c.label}>
          {c.label}
        </span>
      ))}
      {more > 0 && <span className="rl-chip rl-chip-more">+{more}</span>}
    </span>
  );
}

/** One field value of a record, formatted for a list cell (`short`) or the preview (full). */
export const RecordValue = memo(function RecordValue({
  record,
  column,
  ctx,
  short = true,
}: {
  record: RecordLike;
  column: ColumnDef;
  ctx: CellContext;
  short?: boolean;
}) {
  const value = record[column.name];
  const max = short ? TRUNCATE_DEFAULT : TRUNCATE_TOOLTIP;
  switch (column.type) {
    case 'primary':
      return (
        <span className="rl-id-cell">
          <span className="txt-mono rl-id">{String(value ?? '')}</span>
          {value ? <CopyButton value={String(value)} label="Copy id" className="rl-id-copy" /> : null}
        </span>
      );
    case 'bool':
      return value ? <span className="rl-bool rl-bool-true">True</span> : <span className="rl-bool">False</span>;
    case 'number':
      return isEmptyValue(value) ? NA : <span className="txt-nowrap">{String(value)}</span>;
    case 'date':
      if (isEmptyValue(value)) return NA;
      return (
        <span className="txt-nowrap rl-date" title={dateTooltip(value)}>
          {formatDate(value)}
        </span>
      );
    case 'json': {
      if (value === null || value === undefined) return NA;
      return (
        <span className="txt-mono txt-sm rl-json" title={short ? jsonExcerpt(value, JSON_PREVIEW_MAX) : undefined}>
          {jsonExcerpt(value, short ? TRUNCATE_DEFAULT : JSON_PREVIEW_MAX)}
        </span>
      );
    }
    case 'select': {
      const all = toList(value).map(String);
      if (all.length === 0) return NA;
      const { shown, more } = limitList(all, short ? MAX_LIST_ITEMS : 500);
      return <Chips items={shown.map((v) => ({ key: v, label: truncate(v, 70), title: v }))} more={more} />;
    }
    case 'relation': {
      const field = column.field;
      if (!field) return NA;
      const target = ctx.collectionsById.get(String(field.options?.collectionId ?? ''));
      const chips = relationChips(record, field, target);
      if (chips.length === 0) return NA;
      const { shown, more } = limitList(chips, short ? MAX_RELATION_CHIPS : 500);
      return (
        <Chips
          className="rl-relation-chips"
          items={shown.map((c) => ({ key: c.id, label: truncate(c.label, 70), title: c.missing ? `${c.id} (missing)` : `${c.label}\n${c.id}`, missing: c.missing }))}
          more={more}
        />
      );
    }
    case 'file': {
      const names = toList<string>(value).map(String);
      if (names.length === 0) return NA;
      const { shown, more } = limitList(names, short ? MAX_LIST_ITEMS : 500);
      const protectedFile = !!column.field?.options?.protected;
      return (
        <span className="rl-files">
          {shown.map((n) => (
            <FileThumb key={n} record={record} name={n} protectedFile={protectedFile} ctx={ctx} />
          ))}
          {more > 0 && <span className="rl-chip rl-chip-more">+{more}</span>}
        </span>
      );
    }
    case 'editor': {
      const text = plainText(value);
      if (!text) return NA;
      return (
        <span className="rl-text" title={short ? truncate(text, TRUNCATE_TOOLTIP) : undefined}>
          {truncate(text, max)}
        </span>
      );
    }
    default: {
      if (isEmptyValue(value)) return NA;
      const text = typeof value === 'object' ? jsonExcerpt(value, max) : String(value);
      return (
        <span className="rl-text" title={short && text.length > 70 ? truncate(text, TRUNCATE_TOOLTIP) : undefined}>
          {truncate(text, max)}
        </span>
      );
    }
  }
});
