// #/settings/import-collections: paste or load a collections JSON, pick merge or replace, see the
// detected changes, review them side by side and 'Confirm and import'. Hidden in restricted mode.
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { handleError, pb } from '../../api/client';
import { usePageTitle } from '../../shell/page-title';
import { Breadcrumbs, SettingsLayout } from '../../shell/SettingsLayout';
import { addErrorToast } from '../../shell/toasts';
import {
  detectChanges,
  parseCollectionsJson,
  stripTimestamps,
  type CollectionChange,
  type FieldChange,
  type ImportCollection,
} from '../../lib/collections-import';
import { readFileText } from '../../lib/browser-io';
import { ChangeBadge } from './import/ChangeBadge';
import { IconArrowRight, IconInfo, IconUpload } from '../../ui/icons';
import { useRestrictedRedirect } from './import/restricted';
import './import/collections-sync.css';
import { t } from '../../ui/i18n';

const ImportReviewPopup = lazy(() => import('./import/ImportReviewPopup'));

// a sample of the JSON, no words
const JSON_PLACEHOLDER = '[{ "id": "...", "name": "...", "type": "base", "schema": [...] }]';

const FIELD_MARK: Record<FieldChange['kind'], string> = { added: '+', changed: '~', deleted: '−' };

function FieldChanges({ change }: { change: CollectionChange }) {
  if (change.kind !== 'changed') return null;
  const props = change.props.filter((p) => p !== 'name');
  if (change.fields.length === 0 && props.length === 0) return null;
  return (
    <div className="change-details">
      {change.fields.map((f) => (
        <span key={f.kind + (f.id || f.name)} className={`change-chip change-chip-${f.kind}`} title={t(`import.field.${f.kind}`) + (f.id ? ' ' + f.id : '')}>
          <span aria-hidden="true">{FIELD_MARK[f.kind]}</span>
          <span className="visually-hidden">{t(`import.field.${f.kind}`)} </span>
          {f.oldName ? `${f.oldName} → ${f.name}` : f.name}
        </span>
      ))}
      {props.map((p) => (
        <span key={'prop-' + p} className="change-chip change-chip-prop" title={t('import.changedProperty')}>
          {p === 'schema' ? t('import.fieldsOrder') : p}
        </span>
      ))}
    </div>
  );
}

function DetectedChanges({ changes }: { changes: CollectionChange[] }) {
  return (
    <section className="detected-changes" aria-labelledby="detected-changes-title">
      <h3 className="section-title" id="detected-changes-title">
        {t('import.detected')}
      </h3>
      <ul className="changes-list">
        {changes.map((c) => (
          <li key={c.kind + c.id} className="change-item" data-testid="detected-change">
            <ChangeBadge kind={c.kind} />
            <div className="change-main">
              <div className="change-name">
                {c.oldName && (
                  <>
                    <span className="txt-hint txt-strike">{c.oldName}</span>
                    <span className="txt-hint" aria-label={t('import.renamedTo')}>
                      <IconArrowRight size={14} />
                    </span>
                  </>
                )}
                <strong>{c.name}</strong>
                <span className="txt-hint txt-sm txt-mono">({c.id})</span>
              </div>
              <FieldChanges change={c} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function ImportCollectionsPage() {
  usePageTitle(t('page.settingsImportCollections'));
  const hidden = useRestrictedRedirect();
  const uid = useId();
  const fileInput = useRef<HTMLInputElement>(null);

  const [text, setText] = useState('');
  const [merge, setMerge] = useState(false);
  const [existing, setExisting] = useState<ImportCollection[]>([]);
  const [loadingExisting, setLoadingExisting] = useState(true);
  const [loadingFile, setLoadingFile] = useState(false);
  const [review, setReview] = useState<{ open: boolean; mounted: boolean }>({ open: false, mounted: false });
  // The review works on a snapshot, so typing behind the popup cannot change what gets imported.
  const [snapshot, setSnapshot] = useState<{ imported: ImportCollection[]; changes: CollectionChange[]; merge: boolean } | null>(null);

  const loadExisting = useCallback(async () => {
    setLoadingExisting(true);
    try {
      const list = await pb.collections.getFullList({ batch: 200, requestKey: 'import_existing_collections' });
      setExisting(stripTimestamps(list as unknown as Record<string, unknown>[]));
      setLoadingExisting(false);
    } catch (err) {
      if ((err as { isAbort?: boolean })?.isAbort) return;
      setLoadingExisting(false);
      handleError(err);
    }
  }, []);

  useEffect(() => {
    if (!hidden) void loadExisting();
  }, [hidden, loadExisting]);

  const parsed = useMemo(() => parseCollectionsJson(text), [text]);
  const imported = useMemo(() => (parsed.ok ? parsed.collections : []), [parsed]);
  const changes = useMemo(
    () => (parsed.ok && !loadingExisting ? detectChanges(existing, imported, merge) : []),
    [parsed.ok, loadingExisting, existing, imported, merge],
  );
  const invalid = !parsed.ok && !parsed.empty;
  const canReview = parsed.ok && !loadingExisting && changes.length > 0;
  const upToDate = parsed.ok && !loadingExisting && changes.length === 0;

  const clear = () => {
    setText('');
    if (fileInput.current) fileInput.current.value = '';
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setLoadingFile(true);
    try {
      const content = await readFileText(file);
      if (parseCollectionsJson(content).ok) {
        setText(content);
      } else {
        addErrorToast(t('import.invalid'));
        setText('');
      }
    } catch (err) {
      console.warn(err);
      addErrorToast(t('import.loadFailed'));
    } finally {
      input.value = '';
      setLoadingFile(false);
    }
  };

  const openReview = () => {
    if (!canReview) return;
    setSnapshot({ imported, changes, merge });
    setReview({ open: true, mounted: true });
  };

  const onImported = () => {
    setReview((r) => ({ ...r, open: false }));
    clear();
    void loadExisting();
  };

  if (hidden) return null;

  const errorId = `${uid}-error`;
  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={[t('nav.settings'), t('page.settingsImportCollections')]} />
      </header>

      <div className="page-content">
        <div className="sync-card">
          <input
            ref={fileInput}
            type="file"
            className="visually-hidden"
            accept=".json,application/json"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="import-file"
            onChange={(e) => void onFile(e)}
          />
          <div className="sync-intro import-intro">
            <p>{t('import.intro')}</p>
            <button
              type="button"
              className={`btn btn-sm btn-secondary${loadingFile ? ' btn-loading' : ''}`}
              onClick={() => fileInput.current?.click()}
              disabled={loadingFile}
            >
              <IconUpload size={14} />
              <span>{t('import.loadFile')}</span>
            </button>
          </div>

          <div className={`form-field${invalid ? ' error' : ''}`}>
            <label htmlFor={`${uid}-json`}>{t('page.collections')}</label>
            <textarea
              id={`${uid}-json`}
              className="code-input"
              rows={15}
              spellCheck={false}
              autoComplete="off"
              value={text}
              placeholder={JSON_PLACEHOLDER}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? errorId : undefined}
              onChange={(e) => setText(e.target.value)}
            />
            {invalid && (
              <div className="field-error" id={errorId} role="alert">
                {t('import.invalid')}
              </div>
            )}
          </div>

          <label className="sf-toggle sync-toggle">
            <input type="checkbox" checked={merge} onChange={(e) => setMerge(e.target.checked)} />
            <span className="sf-toggle-track" aria-hidden="true" />
            <span>{t('import.merge')}</span>
          </label>
          <p className="field-help sync-toggle-help">
            {t(merge ? 'import.mergeHelp' : 'import.replaceHelp')}
          </p>

          {parsed.ok && loadingExisting && <p className="loading-text txt-hint">{t('import.loadingCurrent')}</p>}

          {upToDate && (
            <div className="alert alert-info sync-alert" role="status">
              <IconInfo size={16} />
              <span>{t('import.upToDate')}</span>
            </div>
          )}

          {canReview && <DetectedChanges changes={changes} />}

          <div className="sync-footer">
            {text && (
              <button type="button" className="btn btn-transparent" onClick={clear}>
                {t('form.clear')}
              </button>
            )}
            <div className="flex-fill" />
            <button type="button" className="btn btn-primary btn-expanded" disabled={!canReview} onClick={openReview}>
              {t('import.review')}
            </button>
          </div>
        </div>
      </div>

      {review.mounted && snapshot && (
        <Suspense fallback={null}>
          <ImportReviewPopup
            open={review.open}
            existing={existing}
            imported={snapshot.imported}
            changes={snapshot.changes}
            merge={snapshot.merge}
            onClose={() => setReview((r) => ({ ...r, open: false }))}
            onImported={onImported}
          />
        </Suspense>
      )}
    </SettingsLayout>
  );
}
