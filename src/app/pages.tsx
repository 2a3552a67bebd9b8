// Which screen each route key renders. Screens of later issues replace their placeholder here.
import { lazy, type ReactNode } from 'react';
import type { PageKey } from './routes';
import { EntryPage } from './EntryPage';
import { CollectionsPlaceholderPage, LogsPlaceholderPage, SettingsPlaceholderPage } from './PlaceholderPage';

const LoginPage = lazy(() => import('../pages/auth/LoginPage'));
const RequestPasswordResetPage = lazy(() => import('../pages/auth/RequestPasswordResetPage'));
const ConfirmPasswordResetPage = lazy(() => import('../pages/auth/ConfirmPasswordResetPage'));
const AdminsListPage = lazy(() => import('../pages/admins/AdminsListPage'));
const RecordConfirmPasswordResetPage = lazy(() => import('../pages/confirmations/RecordConfirmPasswordResetPage'));
const RecordConfirmVerificationPage = lazy(() => import('../pages/confirmations/RecordConfirmVerificationPage'));
const RecordConfirmEmailChangePage = lazy(() => import('../pages/confirmations/RecordConfirmEmailChangePage'));
const OAuth2RedirectPage = lazy(() => import('../pages/confirmations/OAuth2RedirectPage'));

type Params = Record<string, string>;

export const PAGES: Record<PageKey, (params: Params) => ReactNode> = {
  entry: () => <EntryPage />,
  login: () => <LoginPage />,
  requestPasswordReset: () => <RequestPasswordResetPage />,
  confirmPasswordReset: (p) => <ConfirmPasswordResetPage token={p.token ?? ''} />,
  collections: () => <CollectionsPlaceholderPage />,
  logs: () => <LogsPlaceholderPage />,
  settingsApplication: () => <SettingsPlaceholderPage title="Application" />,
  settingsAdmins: () => <AdminsListPage />,
  settingsMail: () => <SettingsPlaceholderPage title="Mail settings" />,
  settingsStorage: () => <SettingsPlaceholderPage title="Files storage" />,
  settingsAuthProviders: () => <SettingsPlaceholderPage title="Auth providers" />,
  settingsTokens: () => <SettingsPlaceholderPage title="Token options" />,
  settingsExportCollections: () => <SettingsPlaceholderPage title="Export collections" />,
  settingsImportCollections: () => <SettingsPlaceholderPage title="Import collections" />,
  settingsBackups: () => <SettingsPlaceholderPage title="Backups" />,
  recordConfirmPasswordReset: (p) => <RecordConfirmPasswordResetPage token={p.token ?? ''} />,
  recordConfirmVerification: (p) => <RecordConfirmVerificationPage token={p.token ?? ''} />,
  recordConfirmEmailChange: (p) => <RecordConfirmEmailChangePage token={p.token ?? ''} />,
  oauth2RedirectSuccess: () => <OAuth2RedirectPage success />,
  oauth2RedirectFailure: () => <OAuth2RedirectPage success={false} />,
};
