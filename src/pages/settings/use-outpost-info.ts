// An Outpost-only read for a settings screen (GET /api/outpost/...): loading, then the answer, or
// 'unavailable' where the server has no such route (a real PocketBase answers 404, which is no
// error to report). `load` asks again (the refresh button); the answer already shown stays
// while it does.
import { useCallback, useEffect, useState } from 'react';
import { handleError, pb } from '../../api/client';

export type OutpostInfo<T> = { kind: 'loading' } | { kind: 'unavailable' } | { kind: 'ready'; data: T };

export function useOutpostInfo<T>(path: string, requestKey: string): { state: OutpostInfo<T>; load: () => Promise<void> } {
  const [state, setState] = useState<OutpostInfo<T>>({ kind: 'loading' });
  const load = useCallback(async () => {
    setState((s) => (s.kind === 'ready' ? s : { kind: 'loading' }));
    try {
      const data = await pb.send<T>(path, { requestKey });
      setState({ kind: 'ready', data });
    } catch (err) {
      if ((err as { isAbort?: boolean })?.isAbort) return;
      setState({ kind: 'unavailable' });
      if ((err as { status?: number })?.status !== 404) handleError(err);
    }
  }, [path, requestKey]);
  useEffect(() => {
    void load();
  }, [load]);
  return { state, load };
}
