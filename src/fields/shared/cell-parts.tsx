// The pieces list cells share: the N/A mark, chips, file thumbs and plain text.
import { useState } from 'react';
import { DEFAULT_THUMB, fileKind, fileUrl, hasThumb, isEmptyValue, jsonExcerpt, truncate, TRUNCATE_DEFAULT, TRUNCATE_TOOLTIP, type RecordLike } from '../../lib/records/format';
import type { CellContext, CellProps } from '../view-types';

export const NA = <span className="txt-hint">N/A</span>;

function FileIcon({ name }: { name: string }) {
  const kind = fileKind(name);
  const label = kind === 'image' ? 'IMG' : kind === 'video' ? 'VID' : kind === 'audio' ? 'AUD' : kind === 'document' ? 'DOC' : 'FILE';
  return (
    <span className="rl-file-icon" aria-hidden="true">
      {label}
    </span>
  );
}

export function FileThumb({ record, name, protectedFile, ctx, size = DEFAULT_THUMB }: { record: RecordLike; name: string; protectedFile: boolean; ctx: CellContext; size?: string }) {
  const [failed, setFailed] = useState(false);
  const collectionId = String(record.collectionId ?? ctx.collection.id);
  const token = protectedFile ? ctx.fileToken : '';
  const canThumb = hasThumb(name) && !failed && (!protectedFile || !!token);
  const href = fileUrl(ctx.baseUrl, collectionId, String(record.id ?? ''), name, { token: token || undefined });
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
          src={fileUrl(ctx.baseUrl, collectionId, String(record.id ?? ''), name, { thumb: size, token: token || undefined })}
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

export function Chips({ items, more, className }: { items: Array<{ key: string; label: string; title?: string; missing?: boolean }>; more: number; className?: string }) {
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

/** A value as truncated text (the cell of text, email, url and any type without its own). */
export function TextCell({ value, short }: CellProps) {
  if (isEmptyValue(value)) return NA;
  const max = short ? TRUNCATE_DEFAULT : TRUNCATE_TOOLTIP;
  const text = typeof value === 'object' ? jsonExcerpt(value, max) : String(value);
  return (
    <span className="rl-text" title={short && text.length > 70 ? truncate(text, TRUNCATE_TOOLTIP) : undefined}>
      {truncate(text, max)}
    </span>
  );
}
