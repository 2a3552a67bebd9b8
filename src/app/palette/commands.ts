// The palette's entries, built from what the dashboard already holds (collections store, settings
// links, recent records) plus admins fetched once; matching is a plain case-insensitive substring.
import type { CollectionModel } from '../../lib/collections/types';
import { buildHash } from '../../shell/navigation';
import { visibleSettingsLinks } from '../../shell/routes';
import { currentAccess } from '../../state/permissions';
import { mayPreviewApi } from '../../lib/roles';
import type { RecentRecord } from './recent';
import { t } from '../../ui/i18n';

export type Command = {
  key: string;
  /** Shown as t('palette.group.<group>'). */
  group: 'Actions' | 'Collections' | 'Records' | 'Settings' | 'Admins';
  label: string;
  hint?: string;
  /** A hash to go to, or an action to run. */
  href?: string;
  run?: () => void;
};

export type CommandSources = {
  collections: readonly CollectionModel[];
  activeCollection: CollectionModel | null;
  hideControls: boolean;
  recent: readonly RecentRecord[];
  admins: readonly { id: string; email: string }[];
  actions: {
    newRecord: (() => void) | null;
    newCollection: (() => void) | null;
    apiDocs: (() => void) | null;
    toggleTheme: () => void;
  };
  theme: 'light' | 'dark';
};

export const recordHref = (collectionId: string, id: string) => buildHash('/collections', { collectionId, recordId: id });

export function buildCommands(s: CommandSources): Command[] {
  const out: Command[] = [];
  const active = s.activeCollection;
  // a scoped admin is offered only what its role allows (the buttons of the page follow the same rule)
  const access = currentAccess();
  if (active && active.type !== 'view' && s.actions.newRecord && access.records(active, 'create')) {
    out.push({ key: 'a:new-record', group: 'Actions', label: t('palette.newRecord', { name: active.name }), run: s.actions.newRecord });
  }
  if (!s.hideControls && s.actions.newCollection && access.schema(null, 'edit')) {
    out.push({ key: 'a:new-collection', group: 'Actions', label: t('palette.newCollection'), run: s.actions.newCollection });
  }
  if (active && s.actions.apiDocs && mayPreviewApi(access, active)) {
    out.push({ key: 'a:api-docs', group: 'Actions', label: t('palette.apiDocs', { name: active.name }), run: s.actions.apiDocs });
  }
  out.push({
    key: 'a:theme',
    group: 'Actions',
    label: s.theme === 'dark' ? t('palette.lightTheme') : t('palette.darkTheme'),
    run: s.actions.toggleTheme,
  });
  out.push({ key: 'a:relation-graph', group: 'Actions', label: t('palette.relationGraph'), href: '#/collections/graph' });
  for (const c of s.collections) {
    out.push({ key: 'c:' + c.id, group: 'Collections', label: c.name, hint: c.type, href: buildHash('/collections', { collectionId: c.id }) });
  }
  const byId = new Map(s.collections.map((c) => [c.id, c]));
  for (const r of s.recent) {
    const c = byId.get(r.collectionId);
    if (c) out.push({ key: 'r:' + r.id, group: 'Records', label: r.id, hint: c.name, href: recordHref(c.id, r.id) });
  }
  for (const l of visibleSettingsLinks(s.hideControls, access)) {
    out.push({ key: 's:' + l.path, group: 'Settings', label: t(l.label), href: '#' + l.path });
  }
  for (const a of s.admins) {
    out.push({ key: 'ad:' + a.id, group: 'Admins', label: a.email, href: buildHash('/settings/admins', { filter: `email="${a.email}"` }) });
  }
  return out;
}

export function matchCommands(all: readonly Command[], query: string, limit = 50): Command[] {
  const q = query.trim().toLowerCase();
  if (!q) return all.slice(0, limit);
  return all.filter((c) => c.label.toLowerCase().includes(q) || (c.hint ?? '').toLowerCase().includes(q)).slice(0, limit);
}

/** PocketBase record ids: 15 characters of [a-z0-9]. */
export const looksLikeRecordId = (q: string): boolean => /^[a-z0-9]{15}$/.test(q.trim());
