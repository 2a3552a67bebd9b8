// #/settings/admins: the admins list (filter and sort in the URL, current admin marked 'You').
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { pb, handleError, type AdminModel } from '../../api/client';
import { Avatar } from '../../ui/avatars';
import { DateZoneLabel, FormattedDate } from '../../ui/FormattedDate';
import { IconArrowDown, IconArrowUp, IconChevronRight, IconPlus } from '../../ui/icons';
import { RefreshButton } from '../../shell/RefreshButton';
import { setQueryParams, useRoute } from '../../shell/navigation';
import { SearchBar } from '../../shell/SearchBar';
import { usePageTitle } from '../../shell/page-title';
import { Breadcrumbs, SettingsLayout } from '../../shell/SettingsLayout';
import { normalizeSearchFilter } from '../../lib/filter-normalize';
import { updateCurrentAdmin, useAuth } from '../../state/auth';
import { useAccess } from '../../state/permissions';
import { loadRoles, rolesState } from '../../state/roles';
import { useSnapshot } from 'valtio';
import { RolesSection } from './RolesSection';
import { t } from '../../ui/i18n';

const AdminEditorPanel = lazy(() => import('./AdminEditorPanel'));

export const ADMINS_DEFAULT_SORT = '-created';
export const ADMINS_SEARCH_FIELDS = ['id', 'email'] as const;

const COLUMNS: Array<{ name: string; label: string; date?: boolean }> = [
  { name: 'id', label: 'id' },
  { name: 'email', label: 'email' },
  { name: 'created', label: 'created', date: true },
  { name: 'updated', label: 'updated', date: true },
];

function toAdminModel(a: Record<string, unknown>): AdminModel {
  return {
    id: String(a.id ?? ''),
    email: String(a.email ?? ''),
    avatar: Number(a.avatar ?? 0) || 0,
    created: String(a.created ?? ''),
    updated: String(a.updated ?? ''),
  };
}

/** PocketBase's sort header cycle: '-name' -> '+name' -> '-name'; another column starts at '-name'. */
export function nextSort(current: string, name: string): string {
  return current === '-' + name ? '+' + name : '-' + name;
}

function SortHeader({ name, label, date, sort }: { name: string; label: string; date?: boolean; sort: string }) {
  const state = sort === '-' + name ? 'descending' : sort === '+' + name || sort === name ? 'ascending' : 'none';
  return (
    <th className={`col-sort${state !== 'none' ? ' col-sort-active' : ''} col-field-${name}`} aria-sort={state}>
      <button type="button" className="col-sort-button" onClick={() => setQueryParams({ sort: nextSort(sort, name) })}>
        <span>{label}</span>
        {date && <DateZoneLabel />}
        {state === 'descending' && <IconArrowDown size={14} />}
        {state === 'ascending' && <IconArrowUp size={14} />}
      </button>
    </th>
  );
}

export default function AdminsListPage() {
  usePageTitle(t('page.settingsAdmins'));
  const { query } = useRoute();
  const { admin: currentAdmin } = useAuth();
  const filter = query.filter ?? '';
  const sort = query.sort || ADMINS_DEFAULT_SORT;

  const [admins, setAdmins] = useState<AdminModel[]>([]);
  const [loading, setLoading] = useState(true);
  const [panel, setPanel] = useState<{ open: boolean; admin: AdminModel | null }>({ open: false, admin: null });
  const [panelMounted, setPanelMounted] = useState(false);
  const loadSeq = useRef(0);
  // roles: full admins manage them here; a scoped admin sees the list only (and edits itself)
  const access = useAccess();
  const roles = useSnapshot(rolesState);
  const reloadRoles = useCallback(() => void loadRoles().catch((err: unknown) => handleError(err)), []);
  useEffect(() => {
    if (access.full) reloadRoles();
  }, [access.full, reloadRoles]);
  const roleName = (id: string) => {
    const roleId = roles.holders[id];
    return roleId ? (roles.roles.find((r) => r.id === roleId)?.name ?? '') : t('roles.fullAdmin');
  };

  const load = useCallback(async () => {
    const seq = ++loadSeq.current;
    const normalized = normalizeSearchFilter(filter, ADMINS_SEARCH_FIELDS);
    setLoading(true);
    try {
      const list = await pb.admins.getFullList({ batch: 100, sort, filter: normalized, requestKey: 'admins_list' });
      if (seq !== loadSeq.current) return;
      setAdmins(list.map((a) => toAdminModel(a as unknown as Record<string, unknown>)));
      setLoading(false);
    } catch (err) {
      if ((err as { isAbort?: boolean })?.isAbort) return;
      if (seq !== loadSeq.current) return;
      setAdmins([]);
      setLoading(false);
      // An invalid filter (400) shows no toast.
      handleError(err, { silent400: !!normalized });
    }
  }, [filter, sort]);

  useEffect(() => {
    void load();
  }, [load]);

  const openPanel = (admin: AdminModel | null) => {
    setPanelMounted(true);
    setPanel({ open: true, admin });
  };
  const closePanel = () => setPanel((p) => ({ ...p, open: false }));

  const onRowKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, admin: AdminModel) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openPanel(admin);
    }
  };

  const onSaved = (saved: AdminModel) => {
    setAdmins((list) => {
      const idx = list.findIndex((a) => a.id === saved.id);
      if (idx >= 0) {
        const copy = list.slice();
        copy[idx] = { ...copy[idx], ...saved };
        return copy;
      }
      return [saved, ...list];
    });
    updateCurrentAdmin(saved);
    setPanel((p) => ({ ...p, admin: saved }));
  };

  const onDeleted = (id: string) => {
    setAdmins((list) => list.filter((a) => a.id !== id));
    setPanel({ open: false, admin: null });
  };

  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={[t('nav.settings'), t('page.settingsAdmins')]} />
        <RefreshButton loading={loading} onClick={() => void load()} />
        <div className="flex-fill" />
        {access.full && (
          <button type="button" className="btn btn-primary" onClick={() => openPanel(null)}>
            <IconPlus size={16} />
            <span>{t('admins.new')}</span>
          </button>
        )}
      </header>

      <div className="page-content">
        <SearchBar
          value={filter}
          onSubmit={(v) => setQueryParams({ filter: v || null })}
          ariaLabel={t('admins.search')}
          placeholder={t('admins.searchPlaceholder')}
        />

        <div className="table-wrapper">
          <table className="table admins-table" aria-busy={loading || undefined}>
            <thead>
              <tr>
                <th className="col-avatar" aria-label={t('admins.avatar')} />
                {COLUMNS.map((c) => (
                  <SortHeader key={c.name} name={c.name} label={c.label} date={c.date} sort={sort} />
                ))}
                {access.full && <th className="col-field-role">{t('roles.column')}</th>}
                <th className="col-action" aria-label={t('admins.open')} />
              </tr>
            </thead>
            <tbody>
              {loading && admins.length === 0 &&
                [0, 1, 2].map((i) => (
                  <tr key={'skeleton' + i} className="row-skeleton" aria-hidden="true">
                    <td colSpan={COLUMNS.length + 2}>
                      <span className="skeleton-line" />
                    </td>
                  </tr>
                ))}
              {!loading && admins.length === 0 && (
                <tr>
                  <td colSpan={COLUMNS.length + 2}>
                    <div className="empty-state">
                      <p className="empty-state-title">{t('admins.noneFound')}</p>
                      {filter && (
                        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setQueryParams({ filter: null })}>
                          {t('admins.clearFilters')}
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              )}
              {admins.map((a) => {
                const isYou = currentAdmin?.id === a.id;
                return (
                  <tr
                    key={a.id}
                    className="row-handle"
                    tabIndex={0}
                    aria-label={t('admins.edit', { email: a.email })}
                    onClick={() => openPanel(a)}
                    onKeyDown={(e) => onRowKeyDown(e, a)}
                  >
                    <td className="col-avatar">
                      <Avatar index={a.avatar} size={28} />
                    </td>
                    <td className="col-field-id">
                      <span className="txt-mono txt-sm">{a.id}</span>
                      {isYou && <span className="badge badge-success badge-you">{t('admins.you')}</span>}
                    </td>
                    <td className="col-field-email">
                      <span className="txt-ellipsis" title={a.email}>
                        {a.email}
                      </span>
                    </td>
                    <td className="col-field-date">
                      <FormattedDate value={a.created} className="txt-nowrap" />
                    </td>
                    <td className="col-field-date">
                      <FormattedDate value={a.updated} className="txt-nowrap" />
                    </td>
                    {access.full && (
                      <td className="col-field-role">
                        <span className="txt-ellipsis">{roleName(a.id)}</span>
                      </td>
                    )}
                    <td className="col-action">
                      <IconChevronRight size={16} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {!loading && admins.length > 0 && <div className="table-footer txt-hint">{t('admins.totalFound', { count: admins.length })}</div>}
        {access.full && <RolesSection onChanged={reloadRoles} />}
      </div>

      {panelMounted && (
        <Suspense fallback={null}>
          <AdminEditorPanel
            onRoleChanged={reloadRoles}
            admin={panel.admin}
            open={panel.open}
            onClose={closePanel}
            onSaved={onSaved}
            onDeleted={onDeleted}
          />
        </Suspense>
      )}
    </SettingsLayout>
  );
}
