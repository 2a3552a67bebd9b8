import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { pb } from '../../api/client';
import { fileKind, fileUrl, hasThumb } from '../../lib/records/format';
import { getFileToken } from '../../api/file-token';
import { ariaDescribedByIds } from '../../lib/dom-ids';
import { useRecordEditor, isUploadToken, uploadName } from './context';
import { FilePreviewPopup } from './FilePreview';
import { currentLanguage, t } from '../../ui/i18n';

const toList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);

/** How many more files fit: maxSelect − (existing + new − deleted). */
export function remainingSlots(value: unknown, maxSelect: number): number {
  return Math.max(0, maxSelect - toList(value).length);
}

/** Whether a file's type is one of `accept` (mime types; `image/*` style wildcards too). */
export function acceptsFile(file: Pick<File, 'type' | 'name'>, mimeTypes: readonly string[]): boolean {
  if (!mimeTypes.length) return true;
  const type = (file.type || '').toLowerCase();
  return mimeTypes.some((m) => {
    const t = m.toLowerCase();
    return t.endsWith('/*') ? type.startsWith(t.slice(0, -1)) : t === type;
  });
}

/** A file size as the language writes its numbers ('1.5 KB', '1,5 KB'), digits fixed as before. */
function formatSize(bytes: number): string {
  const fixed = (n: number, digits: number) =>
    new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(n);
  if (bytes < 1024) return t('recordWidget.sizeBytes', { size: fixed(bytes, 0) });
  if (bytes < 1024 * 1024) return t('recordWidget.sizeKb', { size: fixed(bytes / 1024, 1) });
  return t('recordWidget.sizeMb', { size: fixed(bytes / 1024 / 1024, 2) });
}

function FileIcon() {
  return (
    <span className="record-file-thumb record-file-icon" aria-hidden="true">
      <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round">
        <path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8z" />
        <path d="M14 3v5h5" />
      </svg>
    </span>
  );
}

/** A thumb of a file picked for upload (an object URL, revoked when it goes). */
function LocalThumb({ file }: { file: File }) {
  const url = useMemo(() => (file.type.startsWith('image/') ? URL.createObjectURL(file) : ''), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url ? <img className="record-file-thumb" src={url} alt="" /> : <FileIcon />;
}

function RemoteThumb({ src, name }: { src: string; name: string }) {
  // the src that failed: a new one (a protected file's, once its token came) is tried again
  const [failedSrc, setFailedSrc] = useState('');
  const failed = failedSrc !== '' && failedSrc === src;
  if (!src || failed || fileKind(name) !== 'image') {
    return (
      <FileIcon />
    );
  }
  return <img className="record-file-thumb" src={src} alt={name} loading="lazy" onError={() => setFailedSrc(src)} />;
}

/**
 * The file field: existing files with thumbs (click for the preview popup), each deletable and
 * restorable; new files queued for upload (accept from the field's mime types); uploads disabled
 * and drops ignored once maxSelect is reached.
 */
export function RecordFileWidget({ id, value, disabled, readonly, options, rawErrors, onChange, onBlur }: WidgetProps) {
  const { collection, record, uploads, addUploads } = useRecordEditor();
  const multiple = options.multiple === true;
  const maxSelect = Number(options.maxSelect) || 1;
  const mimeTypes = (Array.isArray(options.mimeTypes) ? options.mimeTypes : []) as string[];
  const isProtected = options.protected === true;
  const fieldName = String(options.fieldName ?? '');
  const current = toList(value);
  const original = record ? toList((record as Record<string, unknown>)[fieldName]) : [];
  const deleted = original.filter((n) => !current.includes(n));
  const remaining = remainingSlots(value, maxSelect);
  const locked = disabled || readonly;
  const input = useRef<HTMLInputElement>(null);
  const [token, setToken] = useState('');
  const [preview, setPreview] = useState<{ name: string; url: string } | null>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    if (!isProtected || !original.length) return;
    let live = true;
    void getFileToken().then((t) => live && setToken(t));
    return () => {
      live = false;
    };
  }, [isProtected, original.length]);

  // a protected file has no address until its token came (without one it answers 403)
  const urlOf = (name: string, thumb?: string) =>
    record && collection && (!isProtected || token) ? fileUrl(pb.baseUrl, record.collectionId ?? collection.id, record.id, name, { thumb, token: isProtected ? token : undefined }) : '';

  const emit = (list: string[]) => onChange(multiple ? list : (list[list.length - 1] ?? ''));

  const add = (files: File[]) => {
    if (locked) return;
    const fit = files.filter((f) => acceptsFile(f, mimeTypes)).slice(0, remaining);
    if (!fit.length) return;
    emit([...current, ...addUploads(fit)]);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (remaining <= 0) return; // drops are ignored once maxSelect is reached
    add(Array.from(e.dataTransfer.files));
  };

  return (
    <div
      className={`record-file${dragging ? ' is-dragging' : ''}`}
      onDragOver={(e) => {
        if (locked || remaining <= 0) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <ul className="record-file-list" aria-label={t('recordWidget.files')}>
        {current.map((name) => {
          if (isUploadToken(name)) {
            const file = uploads.get(name);
            return (
              <li key={name} className="record-file-item is-new">
                {file ? <LocalThumb file={file} /> : <FileIcon />}
                <span className="record-file-name txt-ellipsis">{uploadName(name)}</span>
                <span className="badge badge-success">{t('recordWidget.new')}</span>
                {file && <span className="txt-hint txt-sm">{formatSize(file.size)}</span>}
                {!locked && (
                  <button type="button" className="btn btn-transparent btn-sm" aria-label={t('recordWidget.removeValue', { value: uploadName(name) })} onClick={() => emit(current.filter((n) => n !== name))}>
                    {t('form.remove')}
                  </button>
                )}
              </li>
            );
          }
          return (
            <li key={name} className="record-file-item">
              <button type="button" className="record-file-open" title={t('recordWidget.preview')} aria-label={t('recordWidget.previewFile', { name })} onClick={() => setPreview({ name, url: urlOf(name) })}>
                <RemoteThumb src={hasThumb(name) ? urlOf(name, '100x100') : urlOf(name)} name={name} />
                <span className="record-file-name txt-ellipsis">{name}</span>
              </button>
              {!locked && (
                <button type="button" className="btn btn-transparent btn-sm" aria-label={t('recordWidget.deleteFile', { name })} onClick={() => emit(current.filter((n) => n !== name))}>
                  {t('recordWidget.delete')}
                </button>
              )}
            </li>
          );
        })}
        {deleted.map((name) => (
          <li key={`deleted-${name}`} className="record-file-item is-deleted">
            <RemoteThumb src={hasThumb(name) ? urlOf(name, '100x100') : ''} name={name} />
            <span className="record-file-name txt-ellipsis">{name}</span>
            <span className="badge badge-danger">{t('recordWidget.deleted')}</span>
            {!locked && (
              <button
                type="button"
                className="btn btn-transparent btn-sm"
                aria-label={t('recordWidget.restoreFile', { name })}
                disabled={remaining <= 0}
                onClick={() => emit(multiple ? [...current, name] : [name])}
              >
                {t('recordWidget.restore')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <input
        ref={input}
        id={id}
        type="file"
        className="visually-hidden"
        multiple={multiple}
        accept={typeof options.accept === 'string' && options.accept ? options.accept : undefined}
        disabled={locked || remaining <= 0}
        aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => {
          add(Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
        onBlur={() => onBlur(id, value)}
      />
      <button type="button" className="btn btn-secondary btn-sm record-file-upload" disabled={locked || remaining <= 0} onClick={() => input.current?.click()}>
        {t('recordWidget.uploadNew')}
      </button>
      <FilePreviewPopup file={preview} onClose={() => setPreview(null)} />
    </div>
  );
}
