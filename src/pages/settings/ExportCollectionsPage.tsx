// #/settings/export-collections: pick collections,
// preview their JSON, copy it or download it as pb_schema.json. Hidden in restricted mode.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { handleError, pb } from '../../api/client';
import { IconCopy, IconDownload } from '../../ui/icons';
import { RefreshButton } from '../../shell/RefreshButton';
import { usePageTitle } from '../../shell/page-title';
import { Breadcrumbs, SettingsLayout } from '../../shell/SettingsLayout';
import { addInfoToast } from '../../shell/toasts';
import { stripTimestamps, type ImportCollection } from '../../lib/collections-import';
import { copyText, downloadJsonText } from '../../lib/browser-io';
import { useRestrictedRedirect } from './import/restricted';
import './import/collections-sync.css';
import { t } from '../../ui/i18n';

export const EXPORT_FILE_NAME = 'pb_schema.json';

/** The exported JSON of the selected collections, in list order. */
export function exportJson(collections: readonly ImportCollection[], selected: ReadonlySet<string>): string {
  return JSON.stringify(
    collections.filter((c) => selected.has(c.id)),
    null,
    4,
  );
}

function SelectAll({ total, count, onChange }: { total: number; count: number; onChange: (all: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const all = total > 0 && count === total;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && count < total;
  }, [count, total]);
  return (
    <label className="sync-check sync-check-all">
      <input ref={ref} type="checkbox" checked={all} disabled={total === 0} onChange={() => onChange(!all)} />
      <span className="sync-check-label">{t('export.selectAll')}</span>
      <span className="txt-hint txt-sm">{t('export.countOf', { count, total })}</span>
    </label>
  );
}

export default function ExportCollectionsPage() {
  usePageTitle(t('page.settingsExportCollections'));
  const hidden = useRestrictedRedirect();
  const [collections, setCollections] = useState<ImportCollection[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [loading, setLoading] = useState(true);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const list = await pb.collections.getFullList({ batch: 100, sort: '+name', requestKey: 'export_collections' });
      const clean = stripTimestamps(list as unknown as Record<string, unknown>[]);
      setCollections(clean);
      setSelected(new Set(clean.map((c) => c.id)));
      setLoading(false);
    } catch (err) {
      if ((err as { isAbort?: boolean })?.isAbort) return;
      setLoading(false);
      handleError(err);
    }
  }, []);

  useEffect(() => {
    if (!hidden) void load();
  }, [hidden, load]);

  const json = useMemo(() => exportJson(collections, selected), [collections, selected]);
  const count = collections.filter((c) => selected.has(c.id)).length;

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const copy = () => {
    void copyText(json);
    addInfoToast(t('export.copied'), 3000);
  };

  if (hidden) return null;

  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={[t('nav.settings'), t('page.settingsExportCollections')]} />
        <RefreshButton loading={loading} onClick={() => void load()} />
      </header>

      <div className="page-content">
        <div className="sync-card">
          <p className="sync-intro">{t('export.intro')}</p>

          <div className="export-panel" aria-busy={loading || undefined}>
            <fieldset className="export-list">
              <legend className="visually-hidden">{t('export.legend')}</legend>
              <SelectAll
                total={collections.length}
                count={count}
                onChange={(all) => setSelected(all ? new Set(collections.map((c) => c.id)) : new Set())}
              />
              {loading && collections.length === 0 &&
                [0, 1, 2].map((i) => (
                  <div key={i} className="sync-check" aria-hidden="true">
                    <span className="skeleton-line" />
                  </div>
                ))}
              {!loading && collections.length === 0 && <p className="txt-hint sync-empty">{t('export.noCollections')}</p>}
              {collections.map((c) => (
                <label key={c.id} className="sync-check" title={c.name}>
                  <input type="checkbox" checked={selected.has(c.id)} onChange={() => toggle(c.id)} />
                  <span className="sync-check-label txt-ellipsis">{c.name}</span>
                  {c.type && c.type !== 'base' && <span className="badge sync-type">{String(c.type)}</span>}
                </label>
              ))}
            </fieldset>

            <div className="export-preview">
              <pre className="code-preview" tabIndex={0} aria-label={t('export.preview')} data-testid="export-preview">
                {json}
              </pre>
              <button type="button" className="btn btn-sm btn-secondary export-copy" onClick={copy} disabled={loading && !collections.length}>
                <IconCopy size={14} />
                <span>{t('common.copy')}</span>
              </button>
            </div>
          </div>

          <div className="sync-footer">
            <div className="flex-fill" />
            <button type="button" className="btn btn-primary" disabled={count === 0} onClick={() => downloadJsonText(json, EXPORT_FILE_NAME)}>
              <IconDownload size={16} />
              <span>{t('export.download')}</span>
            </button>
          </div>
        </div>
      </div>
    </SettingsLayout>
  );
}
