import { useState } from 'react';
import { OverlayPanel } from '../../ui/OverlayPanel';
import { fileKind } from '../../lib/records/format';
import { t } from '../../ui/i18n';

export type FilePreviewProps = {
  /** The file to show (null: closed). */
  file: { name: string; url: string } | null;
  onClose(): void;
};

/** The file preview popup: images, videos and audio play inline; anything else says so. */
export function FilePreviewPopup({ file, onClose }: FilePreviewProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const kind = file ? fileKind(file.name) : 'file';
  const broken = !file || failed === file.url || (kind !== 'image' && kind !== 'video' && kind !== 'audio');
  return (
    <OverlayPanel
      open={!!file}
      onRequestClose={onClose}
      size="popup"
      className="record-file-preview"
      header={file?.name}
      footer={
        file && (
          <>
            <a className="btn btn-transparent" href={file.url} target="_blank" rel="noopener noreferrer">
              {t('recordWidget.openInNewTab')}
            </a>
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              {t('common.close')}
            </button>
          </>
        )
      }
    >
      {file && broken && <p className="txt-hint txt-center record-file-preview-none">{t('recordWidget.cannotPreview')}</p>}
      {file && !broken && kind === 'image' && <img src={file.url} alt={file.name} onError={() => setFailed(file.url)} />}
      {file && !broken && kind === 'video' && <video src={file.url} controls onError={() => setFailed(file.url)} />}
      {file && !broken && kind === 'audio' && <audio src={file.url} controls onError={() => setFailed(file.url)} />}
    </OverlayPanel>
  );
}
