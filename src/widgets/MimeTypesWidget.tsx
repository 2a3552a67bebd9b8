import type { WidgetProps } from '@rjsf/utils';
import { CsvWidget } from './CsvWidget';
import './collection-widgets.css';
import { t } from '../ui/i18n';

/** Mime type presets: a short list of the common types of each kind (by the key of its name). */
const MIME_PRESETS: Record<string, string[]> = {
  'form.mime.images': ['image/jpeg', 'image/png', 'image/svg+xml', 'image/gif', 'image/webp'],
  'form.mime.documents': [
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.oasis.opendocument.text',
    'text/plain',
    'text/csv',
  ],
  'form.mime.videos': ['video/mp4', 'video/x-ms-wmv', 'video/quicktime', 'video/3gpp', 'video/webm', 'video/ogg'],
  'form.mime.archives': ['application/zip', 'application/x-7z-compressed', 'application/x-rar-compressed', 'application/gzip', 'application/x-tar'],
};

/** Allowed mime types: a comma-separated list plus preset buttons that add a kind's types. */
export function MimeTypesWidget(props: WidgetProps) {
  const { value, disabled, readonly, onChange } = props;
  const list: string[] = Array.isArray(value) ? (value as string[]) : [];
  return (
    <div className="mime-types">
      <CsvWidget {...props} placeholder={props.placeholder || t('form.noRestriction')} />
      <div className="mime-presets" role="group" aria-label={t('form.mimePresets')}>
        <span className="txt-hint txt-sm">{t('form.presetsColon')}</span>
        {Object.entries(MIME_PRESETS).map(([label, types]) => (
          <button
            key={label}
            type="button"
            className="btn btn-sm btn-transparent"
            disabled={disabled || readonly}
            onClick={() => onChange([...list, ...types.filter((t) => !list.includes(t))])}
          >
            {t(label)}
          </button>
        ))}
      </div>
    </div>
  );
}
