// The relation graph of the collections (beyond the original UI): every collection a box with its
// fields, one edge per (source, target) pair labelled with its relation fields (single vs multiple,
// cascade delete marked), auth/base/view told apart; laid out by dagre (src/lib/collections/graph.ts).
// Pan by dragging, the wheel or the arrow keys, zoom with Ctrl + wheel, + and - or the buttons;
// Fit never shrinks past reading (larger graphs are panned); the search box centres a collection
// and highlights its neighbours; a click (or Enter) on a box opens the collection.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { navigate } from '../../../shell/navigation';
import { mostConnected, neighbourhood, relationGraph, type GraphNode, type GraphWords } from '../../../lib/collections/graph';
import { DETAIL_ZOOM, showsDetail } from '../../../lib/collections/graph-view';
import type { CollectionModel } from '../../../lib/collections/types';
import { collectionsState, loadCollections, setActiveCollection } from '../../../state/collections';
import { CollectionsSidebar } from '../CollectionsSidebar';
import { RelationGraphDrawing } from './RelationGraphDrawing';
import { RelationGraphSearch } from './RelationGraphSearch';
import { useGraphView } from './use-graph-view';
// the sidebar's styles (the collections page's), for an entry straight onto this page
import '../collections.css';
import './relation-graph.css';
import { t } from '../../../ui/i18n';

/** The graph's words in the dashboard's language. */
const graphWords: GraphWords = {
  more: (count) => t('graph.more', { count }),
  fieldKind: (f) =>
    t('graph.fieldKind', {
      name: f.name,
      kind: [t(f.multiple ? 'graph.kindMultiple' : 'graph.kindSingle'), ...(f.cascade ? [t('graph.kindCascade')] : []), ...(f.required ? [t('graph.kindRequired')] : [])].join(', '),
    }),
};

export default function RelationGraphPage() {
  const snap = useSnapshot(collectionsState);
  const collections = snap.collections as unknown as CollectionModel[];
  const graph = useMemo(() => relationGraph(collections, graphWords), [collections]);
  const area = useRef<HTMLDivElement>(null);
  const hub = useMemo(() => mostConnected(graph), [graph]);
  const { view, fit, zoomBy, centre, reveal, handlers } = useGraphView(area, graph, hub);
  const [picked, setPicked] = useState<string | null>(null);
  const focus = useMemo(() => (picked && graph.nodes.some((n) => n.id === picked) ? { id: picked, ...neighbourhood(graph, picked) } : null), [graph, picked]);
  const fitted = useRef(false);
  const detail = showsDetail(view.k);

  useEffect(() => {
    void loadCollections();
  }, []);
  useEffect(() => {
    // fit once, when the collections arrive
    if (!fitted.current && graph.nodes.length) {
      fitted.current = true;
      fit();
    }
  }, [graph, fit]);

  const open = (id: string) => {
    setActiveCollection(id);
    navigate(`/collections?collectionId=${encodeURIComponent(id)}`);
  };
  const pick = useCallback(
    (n: GraphNode) => {
      setPicked(n.id);
      // at a scale where its fields and its edges' labels are drawn
      centre(n, Math.max(1, DETAIL_ZOOM));
    },
    [centre],
  );
  const names = (ids: Set<string>) => {
    const all = graph.nodes.filter((n) => ids.has(n.id) && n.id !== focus?.id).map((n) => n.name);
    return all.length > 6 ? t('graph.andMore', { names: all.slice(0, 5).join(', '), count: all.length - 5 }) : all.join(', ');
  };
  const pickedName = graph.nodes.find((n) => n.id === focus?.id)?.name;

  return (
    <div className="page-with-sidebar collections-page relation-graph-page">
      <CollectionsSidebar activeId="" onSelect={(c) => open(c.id)} onNew={() => navigate('/collections')} />
      <main className="page-wrapper">
        <header className="page-header">
          <nav aria-label={t('common.breadcrumb')} className="breadcrumbs">
            <a href="#/collections" className="breadcrumb-item">
              {t('page.collections')}
            </a>
            <span className="breadcrumb-item">{t('page.collectionsGraph')}</span>
          </nav>
          <div className="flex-fill" />
          <div className="relation-graph-legend txt-muted" aria-label={t('graph.legend')}>
            <span className="rg-legend-item">
              <span className="rg-swatch rg-swatch-single" aria-hidden="true" /> {t('graph.single')}
            </span>
            <span className="rg-legend-item">
              <span className="rg-swatch rg-swatch-multiple" aria-hidden="true" /> {t('graph.multiple')}
            </span>
            <span className="rg-legend-item">
              <span className="rg-swatch rg-swatch-cascade" aria-hidden="true" /> {t('graph.cascade')}
            </span>
          </div>
          <RelationGraphSearch nodes={graph.nodes} picked={focus?.id ?? null} onPick={pick} onClear={() => setPicked(null)} />
          <div className="rg-zoom">
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => zoomBy(1 / 1.2)} aria-label={t('graph.zoomOut')}>
              −
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => zoomBy(1.2)} aria-label={t('graph.zoomIn')}>
              +
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={fit}>
              {t('graph.fit')}
            </button>
          </div>
        </header>
        <div
          ref={area}
          className="relation-graph"
          tabIndex={0}
          role="group"
          aria-label={t('graph.area')}
          data-zoom={view.k.toFixed(3)}
          {...handlers}
        >
          <p className="rg-status" aria-live="polite">
            {focus && pickedName
              ? focus.nodes.size - 1
                ? t('graph.relatedTo', { name: pickedName, names: names(focus.nodes) })
                : t('graph.noRelations', { name: pickedName })
              : !detail && graph.nodes.length
                ? t('graph.namesOnly')
                : ''}
          </p>
          {snap.loaded && graph.nodes.length === 0 && <p className="txt-hint relation-graph-empty">{t('export.noCollections')}</p>}
          <RelationGraphDrawing graph={graph} view={view} detail={detail} focus={focus} onOpen={open} onNodeFocus={reveal} />
        </div>
      </main>
    </div>
  );
}
