// The admin layout: the main sidebar (Collections, Logs, Settings; avatar menu) and the page.
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { Avatar } from '../ui/avatars';
import { onIdle } from './idle';
import { IconAudit, IconCheck, IconCollections, IconLogout, IconLogs, IconMoon, IconSettings, IconSql, IconSun, IconUser, Logo } from '../ui/icons';
import { useRoute } from '../shell/navigation';
import { PaletteHost } from './palette/PaletteHost';
import { isActivePath } from '../shell/routes';
import { toggleTheme, useTheme } from '../ui/theme';
import { setDateZone, useDateZone } from '../ui/date-zone';
import { zoneLabel, type DateZone } from '../lib/date-display';
import { logout, useAuth } from '../state/auth';
import { canUseSqlConsole, loadAccess, useAccess } from '../state/permissions';
import { mayOpen, visibleSettingsLinks } from '../shell/routes';
import type { AdminAccess } from '../lib/roles';
import { LANGUAGES, languageName, setLanguage, t, useLanguage } from '../ui/i18n';
// The phone layout belongs to the signed-in shell: the sign-in page does not load it.
import './responsive.css';

type SidebarLink = { path: string; label: string; Icon: typeof IconLogs; allowed?: (admin: AdminModelLike, access: AdminAccess) => boolean };
type AdminModelLike = Parameters<typeof canUseSqlConsole>[0];

/** The settings screens a scoped admin may open: the Settings link leads to the first. */
const settingsLinks = (access: AdminAccess) => visibleSettingsLinks(false, access);

// the product's name, never translated
const PRODUCT = 'Outpost';

// what a scoped admin's role does not grant is left out (src/state/permissions.ts)
const LINKS: SidebarLink[] = [
  { path: '/collections', label: 'nav.collections', Icon: IconCollections },
  { path: '/logs', label: 'nav.logs', Icon: IconLogs, allowed: (_a, access) => mayOpen(access, 'logs') },
  // the audit trail shows every change: full admins only
  { path: '/audit', label: 'nav.audit', Icon: IconAudit, allowed: (_a, access) => access.full },
  { path: '/sql', label: 'nav.sql', Icon: IconSql, allowed: (admin) => canUseSqlConsole(admin) },
  { path: '/settings', label: 'nav.settings', Icon: IconSettings, allowed: (_a, access) => settingsLinks(access).length > 0 },
];

/** The avatar menu's choice of the zone dates are shown in (src/ui/date-zone.ts): UTC or the browser's. */
function DateZoneChoice() {
  const zone = useDateZone();
  const option = (value: DateZone, label: string) => (
    <button type="button" className="dropdown-item" role="menuitemradio" aria-checked={zone === value} onClick={() => setDateZone(value)}>
      {zone === value ? <IconCheck size={16} /> : <span className="dropdown-item-icon-space" aria-hidden="true" />}
      {label}
    </button>
  );
  return (
    <div role="group" aria-label={t('menu.datesIn')}>
      {option('utc', t('menu.datesInZone', { zone: 'UTC' }))}
      {option('local', t('menu.datesInZone', { zone: zoneLabel('local') }))}
    </div>
  );
}

/** The avatar menu's choice of language (src/ui/i18n.ts): one entry per folder under locales/, named in its own language. */
function LanguageChoice() {
  const lang = useLanguage();
  return (
    <div role="group" aria-label={t('menu.language')}>
      {LANGUAGES.map((l) => (
        <button key={l} type="button" className="dropdown-item" role="menuitemradio" aria-checked={lang === l} lang={l} onClick={() => void setLanguage(l)}>
          {lang === l ? <IconCheck size={16} /> : <span className="dropdown-item-icon-space" aria-hidden="true" />}
          {languageName(l)}
        </button>
      ))}
    </div>
  );
}

function AvatarMenu() {
  const { admin } = useAuth();
  // the admins list is an area of a role (a scoped admin without it would meet the explanation)
  const mayManageAdmins = useAccess().area('admins');
  const theme = useTheme();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const onMenuKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
    const idx = items.indexOf(document.activeElement as HTMLElement);
    const next = e.key === 'ArrowDown' ? (idx + 1) % items.length : (idx - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div className="avatar-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="avatar-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={admin ? t('menu.accountFor', { email: admin.email }) : t('menu.account')}
        title={admin?.email}
        onClick={() => setOpen((v) => !v)}
      >
        <Avatar index={admin?.avatar ?? 0} size={36} />
      </button>
      {open && (
        <div className="dropdown avatar-dropdown" role="menu" ref={menuRef} onKeyDown={onMenuKeyDown}>
          {admin && (
            <div className="dropdown-header" title={admin.email}>
              {admin.email}
            </div>
          )}
          {mayManageAdmins && (
            <a href="#/settings/admins" className="dropdown-item" role="menuitem" onClick={() => setOpen(false)}>
              <IconUser size={16} /> {t('menu.manageAdmins')}
            </a>
          )}
          <button type="button" className="dropdown-item" role="menuitem" onClick={() => toggleTheme()}>
            {theme === 'dark' ? <IconSun size={16} /> : <IconMoon size={16} />}
            {theme === 'dark' ? t('menu.lightTheme') : t('menu.darkTheme')}
          </button>
          <DateZoneChoice />
          <LanguageChoice />
          <button
            type="button"
            className="dropdown-item"
            role="menuitem"
            onClick={() => {
              setOpen(false);
              logout();
            }}
          >
            <IconLogout size={16} /> {t('menu.logout')}
          </button>
        </div>
      )}
    </div>
  );
}

function AppSidebar() {
  const { path } = useRoute();
  const { admin } = useAuth();
  const access = useAccess();
  // the role is read when the session starts or changes hands
  useEffect(() => void loadAccess(), [admin?.id]);
  return (
    <aside className="app-sidebar">
      <a href="#/" className="app-logo" aria-label={t('nav.home')} title={PRODUCT}>
        <Logo size={30} />
      </a>
      <nav className="app-nav" aria-label={t('nav.main')}>
        {LINKS.filter((l) => l.allowed?.(admin, access) ?? true).map(({ path: p, label, Icon }) => {
          const active = isActivePath(path, p);
          const href = p === '/settings' && !access.full ? (settingsLinks(access)[0]?.path ?? p) : p;
          return (
            <a
              key={p}
              href={'#' + href}
              className={`app-nav-link${active ? ' active' : ''}`}
              aria-current={active ? 'page' : undefined}
              title={t(label)}
            >
              <Icon size={20} />
              <span className="app-nav-label">{t(label)}</span>
            </a>
          );
        })}
      </nav>
      <div className="app-sidebar-footer">
        <AvatarMenu />
      </div>
    </aside>
  );
}

/**
 * The rich-text editor is preloaded once signed in, so opening an editor field is instant.
 * Only its chunk (slate) is fetched and evaluated, on idle; nothing is mounted. This module is the
 * signed-in shell's, so the sign-in page never references that chunk. It waits a few seconds
 * first: the page is 'idle' while its first data is in flight, and the chunk (the largest after
 * the app's own) would compete with it for the connection, the server and the main thread.
 */
const preloadRichEditor = (): Promise<unknown> => import('../widgets/record/rich/RichEditor').catch(() => undefined);
const RICH_EDITOR_PRELOAD_DELAY_MS = 3000;

export function AppShell({ children }: { children: ReactNode }) {
  useEffect(() => {
    let cancelIdle: (() => void) | undefined;
    const timer = window.setTimeout(() => (cancelIdle = onIdle(() => void preloadRichEditor())), RICH_EDITOR_PRELOAD_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      cancelIdle?.();
    };
  }, []);
  return (
    <div className="app-layout">
      <AppSidebar />
      <div className="app-body">{children}</div>
      <PaletteHost />
    </div>
  );
}
