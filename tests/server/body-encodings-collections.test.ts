// Endpoints that read a body take it as JSON, multipart/form-data or url-encoded, as PocketBase
// 0.22 does (tools/rest/multi_binder.go + echo's form binder): collections are created,
// updated and imported alike in each encoding, flags typed from text ("true" → a bool), schema and
// options only through `@jsonPayload`.
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_ADMIN_TOKEN, http } from '../helpers/server';
import { ENCODINGS, FORMS, INVALID_FORMAT, sameInEvery, send, withEncodingsServer } from '../helpers/body-encodings';

withEncodingsServer();

describe('collections', () => {
  const normalize = (b: any) => ({
    ...b,
    id: typeof b.id,
    name: String(b.name).replace(/_(json|multipart|urlencoded)$/, '_x'),
    created: typeof b.created,
    updated: typeof b.updated,
    schema: b.schema?.map((f: any) => ({ ...f, id: typeof f.id })),
    indexes: b.indexes?.map((i: string) => i.replace(/_(json|multipart|urlencoded)/g, '_x')),
  });

  it('creates and updates a collection: flags typed from text, schema and options through @jsonPayload', async () => {
    const created = await sameInEvery(
      (enc) =>
        send(
          'POST',
          '/api/collections',
          {
            name: `enc_${enc}`,
            type: 'base',
            system: false,
            listRule: '',
            viewRule: 'id != ""',
            schema: [{ name: 'title', type: 'text', options: { max: 20 } }],
            indexes: [`CREATE INDEX idx_enc_${enc} ON enc_${enc} (title)`],
            options: {},
          },
          enc,
          FIXTURE_ADMIN_TOKEN,
        ),
      normalize,
    );
    expect(created.multipart.status, JSON.stringify(created.multipart.body)).toBe(200);
    expect(created.urlencoded.body).toMatchObject({ system: false, listRule: '', viewRule: 'id != ""', schema: [{ name: 'title', options: { max: 20 } }] });

    const updated = await sameInEvery(
      (enc) => send('PATCH', `/api/collections/enc_${enc}`, { listRule: 'title != ""', deleteRule: '' }, enc, FIXTURE_ADMIN_TOKEN),
      normalize,
    );
    expect(updated.multipart.body).toMatchObject({ listRule: 'title != ""', deleteRule: '', schema: [{ name: 'title' }] });
  });

  it('refuses text for a bool that is none, and text where 0.22 takes only JSON', async () => {
    const bool = await sameInEvery((enc) => send('POST', '/api/collections', { name: 'flag', system: 'maybe' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(bool.json.body).toEqual({ code: 400, message: INVALID_FORMAT, data: {} });
    // ParseBool's spellings: "1", "t", "TRUE"… (forms only; JSON wants a boolean)
    for (const enc of FORMS) {
      const on = await send('POST', '/api/collections', { name: `flag_${enc}`, system: '1', schema: [{ name: 'a', type: 'text' }] }, enc, FIXTURE_ADMIN_TOKEN);
      expect([on.status, on.body.system], enc).toEqual([200, true]);
    }
    const schema = await sameInEvery((enc) => send('POST', '/api/collections', { name: 'texty', schema: 'title' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(schema.json.body).toEqual({ code: 400, message: INVALID_FORMAT, data: {} });
    // a field the form does not have is ignored, as in JSON
    const extra = await sameInEvery((enc) => send('PATCH', '/api/collections/demo2', { unknownField: 'x' }, enc, FIXTURE_ADMIN_TOKEN), (b) => ({ ...b, updated: typeof b.updated }));
    expect(extra.json.status).toBe(200);
  });

  it('imports collections', async () => {
    const list = await http(srv.url, 'GET', '/api/collections?perPage=500', { token: FIXTURE_ADMIN_TOKEN });
    await sameInEvery((enc) =>
      send(
        'PUT',
        '/api/collections/import',
        { collections: [...list.body.items, { name: `imported_${enc}`, type: 'base', schema: [{ name: 'note', type: 'text' }] }], deleteMissing: false },
        enc,
        FIXTURE_ADMIN_TOKEN,
      ),
    );
    for (const enc of ENCODINGS) {
      expect((await http(srv.url, 'GET', `/api/collections/imported_${enc}`, { token: FIXTURE_ADMIN_TOKEN })).status, enc).toBe(200);
    }
  });
});
