/**
 * Settings › Admins, for full admins: the roles (name, how many admins hold each) and the role
 * editor. A scoped admin never sees this section (the server refuses it the roles API).
 */
import { lazy, Suspense, useState } from 'react';
import { useSnapshot } from 'valtio';
import { IconPlus } from '../../ui/icons';
import { rolesState, type ListedRole } from '../../state/roles';
import { t } from '../../ui/i18n';

const RoleEditorPanel = lazy(() => import('./RoleEditorPanel'));

export function RolesSection({ onChanged }: { onChanged(): void }) {
  const snap = useSnapshot(rolesState);
  const [panel, setPanel] = useState<{ open: boolean; role: ListedRole | null }>({ open: false, role: null });
  const [mounted, setMounted] = useState(false);
  const openPanel = (role: ListedRole | null) => {
    setMounted(true);
    setPanel({ open: true, role });
  };
  return (
    <section className="roles-section" aria-label={t('roles.title')}>
      <header className="roles-section-header">
        <h3 className="section-title">{t('roles.title')}</h3>
        <div className="flex-fill" />
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => openPanel(null)}>
          <IconPlus size={14} />
          <span>{t('roles.new')}</span>
        </button>
      </header>
      <p className="txt-hint">{t('roles.note')}</p>
      {snap.roles.length > 0 && (
        <div className="table-wrapper">
          <table className="table roles-table">
            <thead>
              <tr>
                <th>{t('roles.name')}</th>
                <th>{t('roles.admins')}</th>
              </tr>
            </thead>
            <tbody>
              {snap.roles.map((r) => (
                <tr key={r.id} className="row-handle" tabIndex={0} aria-label={t('roles.edit', { name: r.name })} onClick={() => openPanel(r as ListedRole)} onKeyDown={(e) => (e.key === 'Enter' ? openPanel(r as ListedRole) : undefined)}>
                  <td>{r.name}</td>
                  <td>{r.admins}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {mounted && (
        <Suspense fallback={null}>
          <RoleEditorPanel role={panel.role} open={panel.open} onClose={() => setPanel((p) => ({ ...p, open: false }))} onChanged={onChanged} />
        </Suspense>
      )}
    </section>
  );
}
