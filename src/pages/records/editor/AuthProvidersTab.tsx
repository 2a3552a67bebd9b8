// The auth record's 'Authorized providers' tab: the linked OAuth2 accounts with unlink.
import { useEffect, useState } from 'react';
import type { ExternalAuthModel, RecordModel } from 'pocketbase';
import { handleError, pb } from '../../../api/client';
import { confirm } from '../../../shell/confirm';
import { addSuccessToast } from '../../../shell/toasts';
import type { CollectionModel } from '../../../lib/collections/types';
import { providerCards } from '../../settings/providers/provider-forms';
import { t } from '../../../ui/i18n';

/** Title and logo of each provider file, by provider name. */
const PROVIDERS = new Map(providerCards().map((c) => [c.name, c]));

/** `mayUnlink`: a scoped admin without update on the collection sees the links, not the button (the server would refuse). */
export function AuthProvidersTab({ collection, record, mayUnlink }: { collection: CollectionModel; record: RecordModel; mayUnlink: boolean }) {
  const [items, setItems] = useState<ExternalAuthModel[]>([]);
  const [loading, setLoading] = useState(true);

  const load = async () => {
    setLoading(true);
    try {
      setItems(await pb.collection(collection.id).listExternalAuths(record.id, { requestKey: null }));
    } catch (err) {
      handleError(err);
      setItems([]);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [collection.id, record.id]);

  const unlink = (provider: string) =>
    confirm(t('recordEditor.unlinkConfirm', { provider }), async () => {
      try {
        await pb.collection(collection.id).unlinkExternalAuth(record.id, provider);
        addSuccessToast(t('recordEditor.unlinked', { provider }));
        await load();
      } catch (err) {
        handleError(err);
      }
    });

  if (loading) return <p className="txt-hint loading-text">{t('recordWidget.loading')}</p>;
  if (!items.length) return <p className="txt-hint txt-center record-providers-empty">{t('recordEditor.noProviders')}</p>;
  return (
    <ul className="record-providers">
      {items.map((a) => (
        <li key={a.id} className="record-provider">
          {PROVIDERS.get(a.provider) && <img className="record-provider-logo" src={PROVIDERS.get(a.provider)!.logo} alt="" width={24} height={24} />}
          <span className="record-provider-name">{PROVIDERS.get(a.provider)?.title ?? a.provider}</span>
          <span className="txt-hint txt-sm txt-mono">{t('recordEditor.providerId', { id: a.providerId })}</span>
          <span className="flex-fill" />
          {mayUnlink && (
            <button type="button" className="btn btn-transparent btn-sm txt-danger" onClick={() => unlink(a.provider)}>
              {t('recordEditor.unlink')}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
