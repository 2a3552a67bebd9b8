// Endpoints that read a body take it as JSON, multipart/form-data or url-encoded, as PocketBase
// 0.22 does (tools/rest/multi_binder.go + echo's form binder): realtime subscriptions
// (checked on a live SSE stream) in each encoding, and records' own multipart path.
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_ADMIN_TOKEN, http } from '../helpers/server';
import { connectSse } from '../helpers/sse';
import { ENCODINGS, INVALID_FORMAT, sameInEvery, send, sse, withEncodingsServer } from '../helpers/body-encodings';

withEncodingsServer();

describe('realtime', () => {
  it('subscribes in every encoding (one topic or several) and the events arrive', async () => {
    for (const enc of ENCODINGS) {
      for (const subscriptions of [['demo2'], ['demo2', 'demo2/llvuca81nly1qls']]) {
        const client = await connectSse(srv.url);
        sse.push(client);
        const res = await send('POST', '/api/realtime', { clientId: client.clientId, subscriptions }, enc);
        expect(res.status, enc).toBe(204);
        const title = `rt-${enc}-${subscriptions.length}`;
        const created = await http(srv.url, 'POST', '/api/collections/demo2/records', { body: { title } });
        expect(created.status).toBe(200);
        const frame = await client.next((f) => f.event === 'demo2' && f.data?.record?.title === title);
        expect(frame.data.action).toBe('create');
      }
    }
    const missing = await sameInEvery((enc) => send('POST', '/api/realtime', { subscriptions: ['demo2'] }, enc));
    expect(missing.json.body.data.clientId.code).toBe('validation_required');
  });
});

describe('records (their own multipart path stays)', () => {
  it('creates with JSON and multipart; url-encoded is refused as in 0.22', async () => {
    const json = await send('POST', '/api/collections/demo2/records', { title: 'rec-json', active: true }, 'json');
    const multipart = await send('POST', '/api/collections/demo2/records', { title: 'rec-multipart', active: true }, 'multipart');
    expect([json.status, multipart.status]).toEqual([200, 200]);
    expect(multipart.body.active).toBe(true);
    const urlencoded = await send('POST', '/api/collections/demo2/records', { title: 'rec-urlencoded' }, 'urlencoded');
    expect(urlencoded).toEqual({ status: 400, body: { code: 400, message: INVALID_FORMAT, data: {} } });
  });

  it('records-by-ids and records-import (Outpost-only) take forms too', async () => {
    const ids = ['llvuca81nly1qls', 'achvryl401bhse3'];
    const byIds = await sameInEvery((enc) => send('POST', '/api/collections/demo2/records-by-ids', { ids }, enc, FIXTURE_ADMIN_TOKEN));
    expect(byIds.json.body.items.map((r: { id: string }) => r.id)).toEqual(ids);
    const imported = await sameInEvery(
      (enc) => send('POST', '/api/collections/demo2/records-import', { items: [{ data: { title: `imp-${enc}` } }] }, enc, FIXTURE_ADMIN_TOKEN),
      (b) => b.items.map((i: { status: number }) => i.status),
    );
    expect(imported.json.body.items[0].status).toBe(200);
  });
});
