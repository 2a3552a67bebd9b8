// The 'Request log' panel: id with the copy button, level, created,
// message, then the data keys (log-format.ts's detail order first); error as a red label, details as a formatted
// code block, objects pretty-printed, 'N/A' for empty values. Every value is React text (never
// HTML), and long values are cut for display: the JSON download keeps everything.
import { CopyButton } from '../../ui/CopyButton';
import { downloadJsonText } from '../../lib/browser-io';
import { FormattedDate } from '../../ui/FormattedDate';
import { IconDownload } from '../../ui/icons';
import { OverlayPanel } from '../../ui/OverlayPanel';
import { t } from '../../ui/i18n';
import { detailKeys, execTimeText, isEmptyValue, logFileName, type LogEntry } from './log-format';
import { LogLevel } from './LogLevel';

// The log's own field names (as the filter names them), not words: the same in every language.
const FIELD = { id: 'id', level: 'level', created: 'created', message: 'message' } as const;
const dataPath = (key: string) => `data.${key}`;

/** Characters of one value drawn in the panel; a 1 MB message stays cheap to lay out. */
const DETAIL_MAX_CHARS = 20_000;

function clip(text: string): { shown: string; hidden: number } {
  return text.length > DETAIL_MAX_CHARS ? { shown: text.slice(0, DETAIL_MAX_CHARS), hidden: text.length - DETAIL_MAX_CHARS } : { shown: text, hidden: 0 };
}

function Clipped({ text, className, pre = false }: { text: string; className?: string; pre?: boolean }) {
  const { shown, hidden } = clip(text);
  const more = hidden > 0 && <span className="log-clipped"> … {t('logs.moreCharacters', { count: hidden })}</span>;
  return pre ? (
    <pre className={className}>
      {shown}
      {more}
    </pre>
  ) : (
    <span className={className}>
      {shown}
      {more}
    </span>
  );
}

/** Details are often HTML or an error dump: one tag per line reads better. */
function formatDetails(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  return value.length <= DETAIL_MAX_CHARS && /<[a-z!/]/i.test(value) ? value.replace(/>\s*</g, '>\n<') : value;
}

function DataValue({ name, value, isRequest }: { name: string; value: unknown; isRequest: boolean }) {
  if (isEmptyValue(value)) return <span className="txt-muted">{t('logs.na')}</span>;
  if (name === 'details') return <Clipped text={formatDetails(value)} className="log-code log-details" pre />;
  if (value !== null && typeof value === 'object') return <Clipped text={JSON.stringify(value, null, 2)} className="log-code" pre />;
  if (name === 'error') return <Clipped text={String(value)} className="log-error-label" />;
  return <Clipped text={isRequest && name === 'execTime' ? execTimeText(value) : String(value)} className="log-value" />;
}

export interface LogViewPanelProps {
  open: boolean;
  /** null while the log is being fetched */
  log: LogEntry | null;
  onClose: () => void;
}

export function LogViewPanel({ open, log, onClose }: LogViewPanelProps) {
  const isRequest = log?.data?.type === 'request';
  return (
    <OverlayPanel
      open={open}
      size="lg"
      className="log-panel"
      header={t('logs.panelTitle')}
      onRequestClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-transparent" onClick={onClose}>
            {t('common.close')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!log}
            onClick={() => log && downloadJsonText(JSON.stringify(log, null, 2), logFileName(log))}
          >
            <IconDownload size={14} />
            <span>{t('logs.downloadJson')}</span>
          </button>
        </>
      }
    >
      {!log ? (
        <p className="loading-text txt-muted">{t('logs.loading')}</p>
      ) : (
        <table className="table log-view-table">
          <tbody>
            <tr>
              <th scope="row">{FIELD.id}</th>
              <td>
                <span className="log-id">
                  <span className="txt-mono">{log.id}</span>
                  <CopyButton value={log.id} label={t('logs.copyId')} />
                </span>
              </td>
            </tr>
            <tr>
              <th scope="row">{FIELD.level}</th>
              <td>
                <LogLevel level={log.level} />
              </td>
            </tr>
            <tr>
              <th scope="row">{FIELD.created}</th>
              <td>
                <FormattedDate value={log.created} ms withZone />
              </td>
            </tr>
            <tr>
              <th scope="row">{FIELD.message}</th>
              <td>{log.message ? <Clipped text={log.message} className="log-value" /> : <span className="txt-muted">{t('logs.na')}</span>}</td>
            </tr>
            {detailKeys(log.data).map((key) => (
              <tr key={key} data-key={key}>
                <th scope="row">{dataPath(key)}</th>
                <td>
                  <DataValue name={key} value={log.data[key]} isRequest={isRequest} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </OverlayPanel>
  );
}
