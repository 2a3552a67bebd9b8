// The API docs overlay: a vertical tab list (List/Search, View,
// Create, Update, Delete, Realtime, plus the auth tabs) and the page of the selected tab, all
// generated from the collection by src/lib/api-docs. Its own lazy chunk, loaded on 'API Preview'.
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { pb } from '../../../api/client';
import { CopyButton } from '../../../ui/CopyButton';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import type { CollectionModel } from '../../../lib/collections/types';
import { apiDocsPages, type DocPage, type DocParam } from '../../../lib/api-docs/pages';
import { collectionsState } from '../../../state/collections';
import './api-docs.css';
import { t } from '../../../ui/i18n';

export type ApiDocsPanelProps = {
  collection: CollectionModel;
  open: boolean;
  onClose(): void;
};

function CodeBlock({ code, label, copyLabel }: { code: string; label: string; copyLabel: string }) {
  return (
    <div className="api-docs-code">
      <pre tabIndex={0} aria-label={label}>
        <code>{code}</code>
      </pre>
      <CopyButton value={code} label={copyLabel} className="api-docs-copy" />
    </div>
  );
}

function ParamsTable({ title, params, showRequired = true }: { title: string; params: DocParam[]; showRequired?: boolean }) {
  if (params.length === 0) return null;
  return (
    <section className="api-docs-section">
      <h4 className="api-docs-section-title">{title}</h4>
      <table className="table api-docs-table">
        <thead>
          <tr>
            <th scope="col">{t('apiDocs.name')}</th>
            <th scope="col">{t('apiDocs.type')}</th>
            <th scope="col">{t('apiDocs.description')}</th>
          </tr>
        </thead>
        <tbody>
          {params.map((p) => (
            <tr key={p.name}>
              <td className="api-docs-param">
                {showRequired && <span className={`api-docs-req ${p.required ? 'is-required' : 'is-optional'}`}>{p.required ? t('apiDocs.required') : t('apiDocs.optional')}</span>}
                <code>{p.name}</code>
              </td>
              <td>
                <span className="api-docs-type">{p.type}</span>
              </td>
              <td>{p.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Responses({ page }: { page: DocPage }) {
  const [active, setActive] = useState(0);
  const current = page.responses[Math.min(active, page.responses.length - 1)];
  return (
    <section className="api-docs-section">
      <h4 className="api-docs-section-title">{t('apiDocs.responses')}</h4>
      <div className="api-docs-statuses" role="group" aria-label={t('apiDocs.responseStatus')}>
        {page.responses.map((r, i) => (
          <button
            key={r.status}
            type="button"
            className={`api-docs-status${i === active ? ' active' : ''}${r.status >= 400 ? ' is-error' : ''}`}
            aria-pressed={i === active}
            onClick={() => setActive(i)}
          >
            {r.status}
          </button>
        ))}
      </div>
      {current && <CodeBlock code={current.body} label={t('apiDocs.response', { status: String(current.status) })} copyLabel={t('apiDocs.copyResponse', { status: String(current.status) })} />}
    </section>
  );
}

function DocPageView({ page }: { page: DocPage }) {
  return (
    <article className="api-docs-page" aria-labelledby={`api-docs-title-${page.id}`}>
      <h3 id={`api-docs-title-${page.id}`} className="api-docs-title">
        {page.title}
      </h3>
      {page.intro.map((p) => (
        <p key={p} className="api-docs-intro">
          {p}
        </p>
      ))}

      <section className="api-docs-section">
        <h4 className="api-docs-section-title">{t('apiDocs.sdk')}</h4>
        <CodeBlock code={page.sdk} label={t('apiDocs.sdkExample')} copyLabel={t('apiDocs.copySdkExample')} />
      </section>

      <section className="api-docs-section">
        <h4 className="api-docs-section-title">{t('apiDocs.details')}</h4>
        <div className={`api-docs-endpoint method-${page.method.toLowerCase()}`}>
          <span className="api-docs-method">{page.method}</span>
          <code className="api-docs-path">{page.path}</code>
        </div>
        <p className="api-docs-access">
          <strong>{t('apiDocs.whoMayCall')}</strong>
          {page.access}
        </p>
        {typeof page.rule === 'string' && page.rule.trim() !== '' && <CodeBlock code={page.rule} label={t('apiDocs.apiRule')} copyLabel={t('apiDocs.copyApiRule')} />}
      </section>

      <ParamsTable title={t('apiDocs.pathParams')} params={page.pathParams} showRequired={false} />
      <ParamsTable title={t('apiDocs.queryParams')} params={page.queryParams} showRequired={false} />
      <ParamsTable title={t('apiDocs.bodyParams')} params={page.bodyParams} />
      <ParamsTable title={t('apiDocs.recordFields')} params={page.fields} showRequired={false} />
      <Responses key={page.id} page={page} />
      {page.notes.length > 0 && (
        <ul className="api-docs-notes">
          {page.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </article>
  );
}

export default function ApiDocsPanel({ collection, open, onClose }: ApiDocsPanelProps) {
  const pages = useMemo(
    () =>
      apiDocsPages(collection, {
        baseUrl: pb.baseUrl,
        words: t,
        lookup: (id) => collectionsState.collections.find((c) => c.id === id),
      }),
    [collection],
  );
  const [activeId, setActiveId] = useState(pages[0]?.id ?? '');
  const active = pages.find((p) => p.id === activeId) ?? pages[0];
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());
  const bodyRef = useRef<HTMLDivElement>(null);

  const select = (id: string, focus = false) => {
    setActiveId(id);
    bodyRef.current?.scrollTo({ top: 0 });
    if (focus) tabRefs.current.get(id)?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = pages.findIndex((p) => p.id === active?.id);
    let next = -1;
    if (e.key === 'ArrowDown') next = (i + 1) % pages.length;
    else if (e.key === 'ArrowUp') next = (i - 1 + pages.length) % pages.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = pages.length - 1;
    if (next < 0) return;
    e.preventDefault();
    select(pages[next].id, true);
  };

  const title = t('apiDocs.title', { name: collection.name });
  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      size="lg"
      className="api-docs-panel"
      ariaLabel={title}
      header={<h2 className="overlay-panel-title">{title}</h2>}
      footer={
        <button type="button" className="btn btn-transparent" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      <div className="api-docs-layout">
        <div className="api-docs-nav" role="tablist" aria-orientation="vertical" aria-label={t('apiDocs.endpoints')} onKeyDown={onKeyDown}>
          {pages.map((p, i) => (
            <button
              key={p.id}
              ref={(el) => {
                if (el) tabRefs.current.set(p.id, el);
                else tabRefs.current.delete(p.id);
              }}
              type="button"
              role="tab"
              id={`api-docs-tab-${p.id}`}
              aria-selected={p.id === active?.id}
              aria-controls="api-docs-tabpanel"
              tabIndex={p.id === active?.id ? 0 : -1}
              className={`api-docs-tab${p.id === active?.id ? ' active' : ''}${i === 6 ? ' api-docs-tab-group' : ''}`}
              onClick={() => select(p.id)}
            >
              {p.tab}
            </button>
          ))}
        </div>
        <div className="api-docs-body" id="api-docs-tabpanel" role="tabpanel" aria-labelledby={active ? `api-docs-tab-${active.id}` : undefined} ref={bodyRef}>
          {active && <DocPageView page={active} />}
        </div>
      </div>
    </OverlayPanel>
  );
}
