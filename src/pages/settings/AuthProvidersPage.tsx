// #/settings/auth-providers: one card per provider file, enabled first then disabled,
// each with its logo, title, 'Enabled' badge and settings button. The popup is the template screen
// screens/settings-auth-provider.json instantiated for the provider (its form: the provider file);
// a provider's UI schema may add actions to it (Apple's client secret generator), which the
// screen runner performs; nothing here knows a provider.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { handleError, pb } from '../../api/client';
import { IconSettings } from '../../ui/icons';
import { usePageTitle } from '../../shell/page-title';
import { RefreshButton } from '../../shell/RefreshButton';
import { Breadcrumbs, SettingsLayout } from '../../shell/SettingsLayout';
import { getScreen, instantiateScreen } from '../../engine';
import { ScreenView } from '../../engine/ScreenView';
import { providerCards, type ProviderCard } from './providers/provider-forms';
import './providers/auth-providers.css';
import { t } from '../../ui/i18n';

const TEMPLATE = 'settings-auth-provider';

type Blocks = Record<string, { enabled?: boolean } | undefined>;

export default function AuthProvidersPage() {
  usePageTitle(t('page.settingsAuthProviders'));
  const cards = useMemo(providerCards, []);
  const [blocks, setBlocks] = useState<Blocks>({});
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<ProviderCard | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setBlocks((await pb.settings.getAll({ requestKey: 'auth_providers_load' })) as Blocks);
    } catch (err) {
      if (!(err as { isAbort?: boolean })?.isAbort) handleError(err);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const sorted = useMemo(() => {
    const on = (c: ProviderCard) => Boolean(blocks[c.key]?.enabled);
    const byTitle = (a: ProviderCard, b: ProviderCard) => a.title.localeCompare(b.title);
    return [...cards.filter(on).sort(byTitle), ...cards.filter((c) => !on(c)).sort(byTitle)];
  }, [cards, blocks]);

  const screen = useMemo(() => {
    if (!open) return null;
    const s = instantiateScreen(getScreen(TEMPLATE), { name: open.name, title: open.title });
    // the provider's own actions go after the template's first one ("Clear all fields")
    const [first, ...rest] = s.actions ?? [];
    return { ...s, name: `${TEMPLATE}-${open.name}`, actions: first ? [first, ...open.actions, ...rest] : open.actions };
  }, [open]);

  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={[t('nav.settings'), t('page.settingsAuthProviders')]} />
        <RefreshButton loading={loading} onClick={() => void load()} />
      </header>
      <div className="page-content">
        <ul className="provider-cards" aria-busy={loading || undefined}>
          {sorted.map((c) => {
            const enabled = Boolean(blocks[c.key]?.enabled);
            return (
              <li key={c.key} className={`provider-card${enabled ? ' provider-card-enabled' : ''}`} data-provider={c.name}>
                <img className="provider-logo" src={c.logo} alt="" width={32} height={32} />
                <div className="provider-meta">
                  <span className="provider-title">{c.title}</span>
                  <span className="txt-hint txt-sm">{c.key}</span>
                </div>
                {enabled && <span className="badge badge-success">{t('form.enabled')}</span>}
                <button
                  type="button"
                  className="btn btn-transparent btn-circle provider-settings"
                  aria-label={t('providers.settingsOf', { name: c.title })}
                  title={t('providers.settingsOf', { name: c.title })}
                  onClick={() => setOpen(c)}
                >
                  <IconSettings />
                </button>
              </li>
            );
          })}
        </ul>
      </div>
      {screen && (
        <ScreenView
          key={screen.name}
          name={screen}
          open={Boolean(open)}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            void load();
          }}
        />
      )}
    </SettingsLayout>
  );
}
