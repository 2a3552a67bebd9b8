// The auth record's 'Authorized providers' tab: the linked OAuth2 accounts with unlink.
import { useEffect, useState } from 'react';
import type { ExternalAuthModel, RecordModel } from 'pocketbase';
import { handleError, pb } from '../../../api/client';
import { confirm } from '../../../shell/confirm';
import { addSuccessToast } from '../../../shell/toasts';
import type { CollectionModel } from '../../../lib/collections/types';
import { providerCards } from '../../settings/providers/provider-forms';

/** Title and logo of each provider file, by provider name. */
const PROVIDERS = new Map(providerCards().map((c) => [c.name, c]));

export function AuthProvidersTab({ collection, record }: { collection: CollectionModel; record: RecordModel }) {
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
    confirm(`Do you really want to unlink the ${provider} provider?`, async () => {
      try {
        await pb.collection(collection.id).unlinkExternalAuth(record.id, provider);
        addSuccessToast(`Successfully unlinked the ${provider} provider.`);
        await load();
      } catch (err) {
        handleError(err);
      }
    });

  if (loading) return <p className="txt-hint loading-text">Loading...</p>;
  if (!items.length) return <p className="txt-hint txt-center record-providers-empty">No linked OAuth2 providers.</p>;
  return (
    <ul className="record-providers">
      {items.map((a) => (
        <li key={a.id} className="record-provider">
          {PROVIDERS.get(a.provider) && <img className="record-provider-logo" src={PROVIDERS.get(a.provider)!.logo} alt="" width={24} height={24} />}
          <span className="record-provider-name">{PROVIDERS.get(a.provider)?.title ?? a.provider}</span>
          <span className="txt-hint txt-sm txt-mono">ID: {a.providerId}</span>
          <span className="flex-fill" />
          <button type="button" className="btn btn-transparent btn-sm txt-danger" onClick={() => unlink(a.provider)}>
            Unlink
          </button>
        </li>
      ))}
    </ul>
  );
}
