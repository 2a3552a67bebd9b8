// The server's collections store against the real server on a fresh data dir: cached, and
// invalidated and announced on every change made over /api/collections.
import { describe, expect, it } from 'vitest';
import { api, srv, withAdminServer } from '../helpers/collections-api';
import { findCollection, getCollections, onCollectionsChange, type CollectionChange } from '../../server/collections/store';

withAdminServer();

describe('store', () => {
  it('serves cached collections, invalidated and announced on every change', async () => {
    const ctx = srv.app.ctx;
    const seen: CollectionChange[] = [];
    const off = onCollectionsChange(ctx, (change) => seen.push(change));
    const before = getCollections(ctx).length;
    expect(getCollections(ctx)).toBe(getCollections(ctx));
    const res = await api('POST', '/api/collections', { name: 'Cached', schema: [{ name: 'x', type: 'text' }] });
    expect(findCollection(ctx, 'cached')?.id).toBe(res.body.id);
    expect(findCollection(ctx, res.body.id)?.name).toBe('Cached');
    expect(getCollections(ctx).length).toBe(before + 1);
    await api('DELETE', '/api/collections/cached');
    expect(findCollection(ctx, 'cached')).toBeUndefined();
    expect(seen.map((c) => c.action)).toEqual(['create', 'delete']);
    off();
  });
});
