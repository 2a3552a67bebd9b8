// Which screen each route key renders. Screens of later issues replace their placeholder here.
import { lazy, type ComponentType, type ReactNode } from 'react';
import type { PageKey } from './routes';
import { EntryPage } from './EntryPage';

type Preloadable = { preload: () => Promise<void> };

/**
 * A page loaded on demand that the router can fetch before showing it (see preloadPage): once its
 * module is in, it renders directly instead of through React.lazy, so the route never suspends
 * (a suspended route shows the loader and React then holds the page back for its reveal throttle).
 */
function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> & Preloadable {
  let loaded: ComponentType<P> | undefined;
  const Lazy = lazy(load);
  function Page(props: P) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  const preload = () =>
    load().then(
      (m) => void (loaded = m.default),
      () => undefined, // React.lazy retries and reports the failure when the page renders
    );
  return Object.assign(Page, { preload });
}

const CollectionsPage = lazyPage(() => import('../pages/collections/CollectionsPage'));
const RelationGraphPage = lazyPage(() => import('../pages/collections/graph/RelationGraphPage'));

const LoginPage = lazyPage(() => import('../pages/auth/LoginPage'));
const RequestPasswordResetPage = lazyPage(() => import('../pages/auth/RequestPasswordResetPage'));
const ConfirmPasswordResetPage = lazyPage(() => import('../pages/auth/ConfirmPasswordResetPage'));
const AdminsListPage = lazyPage(() => import('../pages/admins/AdminsListPage'));
const ApplicationSettingsPage = lazyPage(() => import('../pages/settings/ApplicationSettingsPage'));
const MailSettingsPage = lazyPage(() => import('../pages/settings/MailSettingsPage'));
const StorageSettingsPage = lazyPage(() => import('../pages/settings/StorageSettingsPage'));
const TokenOptionsPage = lazyPage(() => import('../pages/settings/TokenOptionsPage'));
const AuthProvidersPage = lazyPage(() => import('../pages/settings/AuthProvidersPage'));
const LogsPage = lazyPage(() => import('../pages/logs/LogsPage'));
const ExportCollectionsPage = lazyPage(() => import('../pages/settings/ExportCollectionsPage'));
const ImportCollectionsPage = lazyPage(() => import('../pages/settings/ImportCollectionsPage'));
const BackupsPage = lazyPage(() => import('../pages/settings/backups/BackupsPage'));
const RecordConfirmPasswordResetPage = lazyPage(() => import('../pages/confirmations/RecordConfirmPasswordResetPage'));
const RecordConfirmVerificationPage = lazyPage(() => import('../pages/confirmations/RecordConfirmVerificationPage'));
const RecordConfirmEmailChangePage = lazyPage(() => import('../pages/confirmations/RecordConfirmEmailChangePage'));
const OAuth2RedirectPage = lazyPage(() => import('../pages/confirmations/OAuth2RedirectPage'));

type Params = Record<string, string>;

/** The on-demand module behind each page key (pages drawn by the main chunk have none). */
const PRELOADS: Partial<Record<PageKey, Preloadable>> = {
  login: LoginPage,
  requestPasswordReset: RequestPasswordResetPage,
  confirmPasswordReset: ConfirmPasswordResetPage,
  collections: CollectionsPage,
  collectionsGraph: RelationGraphPage,
  logs: LogsPage,
  settingsApplication: ApplicationSettingsPage,
  settingsAdmins: AdminsListPage,
  settingsMail: MailSettingsPage,
  settingsStorage: StorageSettingsPage,
  settingsAuthProviders: AuthProvidersPage,
  settingsTokens: TokenOptionsPage,
  settingsExportCollections: ExportCollectionsPage,
  settingsImportCollections: ImportCollectionsPage,
  settingsBackups: BackupsPage,
  recordConfirmPasswordReset: RecordConfirmPasswordResetPage,
  recordConfirmVerification: RecordConfirmVerificationPage,
  recordConfirmEmailChange: RecordConfirmEmailChangePage,
  oauth2RedirectSuccess: OAuth2RedirectPage,
  oauth2RedirectFailure: OAuth2RedirectPage,
};

/** Loads a page's module (resolves at once for pages without one); never rejects. */
export function preloadPage(key: PageKey | undefined): Promise<void> {
  return (key && PRELOADS[key]?.preload()) || Promise.resolve();
}

export const PAGES: Record<PageKey, (params: Params) => ReactNode> = {
  entry: () => <EntryPage />,
  login: () => <LoginPage />,
  requestPasswordReset: () => <RequestPasswordResetPage />,
  confirmPasswordReset: (p) => <ConfirmPasswordResetPage token={p.token ?? ''} />,
  collections: () => <CollectionsPage />,
  collectionsGraph: () => <RelationGraphPage />,
  logs: () => <LogsPage />,
  settingsApplication: () => <ApplicationSettingsPage />,
  settingsAdmins: () => <AdminsListPage />,
  settingsMail: () => <MailSettingsPage />,
  settingsStorage: () => <StorageSettingsPage />,
  settingsAuthProviders: () => <AuthProvidersPage />,
  settingsTokens: () => <TokenOptionsPage />,
  settingsExportCollections: () => <ExportCollectionsPage />,
  settingsImportCollections: () => <ImportCollectionsPage />,
  settingsBackups: () => <BackupsPage />,
  recordConfirmPasswordReset: (p) => <RecordConfirmPasswordResetPage token={p.token ?? ''} />,
  recordConfirmVerification: (p) => <RecordConfirmVerificationPage token={p.token ?? ''} />,
  recordConfirmEmailChange: (p) => <RecordConfirmEmailChangePage token={p.token ?? ''} />,
  oauth2RedirectSuccess: () => <OAuth2RedirectPage success />,
  oauth2RedirectFailure: () => <OAuth2RedirectPage success={false} />,
};
