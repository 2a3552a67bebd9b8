// Settings › Application's hint about a reverse proxy, from the server's health answer as
// PocketBase 0.23 gives it to admins (`realIP`, the address the server resolved for this request,
// and `possibleProxyHeader`, a forwarding header the request came with): a warning while that
// header is not one the saved settings trust, else the resolved address so the admin can check it
// is really theirs. A server without those fields (PocketBase 0.22) gets no hint.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { pb } from '../../api/client';
import { tRich } from '../../ui/rich-text';

interface ProxyHealth {
  realIP: string;
  possibleProxyHeader: string;
}

async function loadProxyHealth(): Promise<ProxyHealth | null> {
  try {
    const data = (await pb.health.check({ requestKey: 'settings_proxy_health' }))?.data as Record<string, unknown> | undefined;
    return typeof data?.realIP === 'string' ? { realIP: data.realIP, possibleProxyHeader: String(data.possibleProxyHeader ?? '') } : null;
  } catch {
    return null; // a hint is not worth an error toast
  }
}

/** The hint for the saved trusted headers, and `refresh` to ask the server again (after a save). */
export function useProxyHint(trusted: readonly string[] | null): { hint: ReactNode; refresh: () => void } {
  const [health, setHealth] = useState<ProxyHealth | null>(null);
  const refresh = useCallback(() => void loadProxyHealth().then(setHealth), []);
  useEffect(refresh, [refresh]);
  const hint = useMemo(() => (health && trusted ? proxyHint(health, trusted) : null), [health, trusted]);
  return { hint, refresh };
}

function proxyHint({ realIP, possibleProxyHeader: header }: ProxyHealth, trusted: readonly string[]): ReactNode {
  if (header && !trusted.some((h) => h.toLowerCase() === header.toLowerCase())) {
    return (
      <div className="alert alert-warning" role="status" data-hint="untrusted-proxy">
        {tRich('proxy.untrusted', { header: <strong>{header}</strong>, ip: <strong>{realIP}</strong> })}
      </div>
    );
  }
  if (!trusted.length) return null;
  return (
    <div className="alert alert-info" role="status" data-hint="resolved-ip">
      {tRich(header ? 'proxy.resolvedFrom' : 'proxy.resolvedDirect', { ip: <strong>{realIP}</strong> }, { header })}
    </div>
  );
}
