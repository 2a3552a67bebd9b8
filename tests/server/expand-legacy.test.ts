// The soft-deprecated back-relation expand `<collection>(<field>)` that PocketBase 0.22 still
// accepts beside `<collection>_via_<field>` (daos/record_expand.go, v0.22.12): keyed in `expand` by
// the segment as sent, nested like any relation, array unless the back-relation field has a
// single-column unique index, fetched under the related collection's viewRule, unknown parts
// ignored, paths cut after 6 levels. The Python SDK's pre-0.23 integration suite sends it.
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, http, startServer, type TestServer } from '../helpers/server';
import { realtimeKit } from '../helpers/sse';

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

let srv: TestServer;
const { sse, subscribe, closeAll } = realtimeKit(() => srv.url);
const admin = (p: string) => http(srv.url, 'GET', p, { token: FIXTURE_ADMIN_TOKEN });
const guest = (p: string) => http(srv.url, 'GET', p);
const ex = (expand: string) => `expand=${encodeURIComponent(expand)}`;
const ids = (list: Array<{ id: string }>) => list.map((r) => r.id).sort();

const id: Record<string, string> = {};

async function post(path: string, body: unknown): Promise<any> {
  const res = await http(srv.url, 'POST', path, { body, token: FIXTURE_ADMIN_TOKEN });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const collection = (name: string, schema: unknown[], rules: Record<string, string | null>, indexes: string[] = []) =>
  post('/api/collections', { name, type: 'base', schema, indexes, listRule: '', viewRule: '', createRule: null, updateRule: null, deleteRule: null, ...rules });
const record = async (name: string, key: string, body: unknown) => {
  id[key] = (await post(`/api/collections/${name}/records`, body)).id;
};

beforeAll(async () => {
  srv = await startServer({ fixture: true });
  const authors = await collection('authors', [{ name: 'name', type: 'text' }], {});
  const posts = await collection('posts', [{ name: 'title', type: 'text' }], {});
  const rel = (name: string, to: { id: string }, maxSelect: number | null) => ({ name, type: 'relation', options: { collectionId: to.id, maxSelect } });
  // the listRule is admin-only on purpose: expanded records are checked against the viewRule only
  await collection(
    'comments',
    [{ name: 'text', type: 'text' }, rel('post', posts, 1), rel('author', authors, 1), { name: 'hidden', type: 'bool' }],
    { listRule: null, viewRule: 'hidden = false' },
  );
  await collection('profiles', [{ name: 'bio', type: 'text' }, rel('post', posts, 1)], {}, ['CREATE UNIQUE INDEX idx_profiles_post ON profiles (post)']);
  await collection('tagged', [{ name: 'label', type: 'text' }, rel('posts', posts, null)], {});
  await collection('secrets', [rel('post', posts, 1)], { viewRule: null });

  await record('authors', 'ann', { name: 'ann' });
  await record('authors', 'bob', { name: 'bob' });
  await record('posts', 'p1', { title: 'first' });
  await record('posts', 'p2', { title: 'second' });
  await record('posts', 'p3', { title: 'lonely' });
  await record('comments', 'c1', { text: 'visible', post: id.p1, author: id.ann });
  await record('comments', 'c2', { text: 'hidden', post: id.p1, author: id.bob, hidden: true });
  await record('comments', 'c3', { text: 'other', post: id.p2, author: id.ann });
  await record('profiles', 'pr1', { bio: 'about p1', post: id.p1 });
  await record('tagged', 't1', { label: 'both', posts: [id.p1, id.p2] });
  await record('tagged', 't2', { label: 'one', posts: [id.p1] });
  await record('secrets', 's1', { post: id.p1 });
});

afterAll(async () => {
  closeAll();
  await srv?.close();
});

describe('expand=<collection>(<field>)', () => {
  it('expands a back-relation on the view endpoint, keyed by the segment as sent', async () => {
    const res = await admin(`/api/collections/posts/records/${id.p1}?${ex('comments(post)')}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.expand)).toEqual(['comments(post)']);
    expect(ids(res.body.expand['comments(post)'])).toEqual([id.c1, id.c2].sort());
    // the looked-up ids are not a field of the record
    expect(res.body['comments(post)']).toBeUndefined();
  });

  it('accepts the parentheses unencoded in the URL', async () => {
    const res = await admin(`/api/collections/posts/records/${id.p2}?expand=comments(post)`);
    expect(res.status).toBe(200);
    expect(ids(res.body.expand['comments(post)'])).toEqual([id.c3]);
  });

  it('expands every item of a list; items with no back-relation get no expand', async () => {
    const res = await admin(`/api/collections/posts/records?sort=created&${ex('comments(post)')}`);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.items.map((r: any) => [r.id, r]));
    expect(ids((byId.get(id.p1) as any).expand['comments(post)'])).toEqual([id.c1, id.c2].sort());
    expect(ids((byId.get(id.p2) as any).expand['comments(post)'])).toEqual([id.c3]);
    expect((byId.get(id.p3) as any).expand).toBeUndefined();
  });

  it('is a single record only when the field has a single-column unique index, else an array', async () => {
    const res = await admin(`/api/collections/posts/records/${id.p1}?${ex('profiles(post),comments(post),tagged(posts)')}`);
    expect(res.status).toBe(200);
    // unique index on profiles.post: one record
    expect(res.body.expand['profiles(post)']).toMatchObject({ id: id.pr1, bio: 'about p1' });
    // comments.post is maxSelect 1 but not unique: still an array
    expect(Array.isArray(res.body.expand['comments(post)'])).toBe(true);
    // a multiple relation field is searched inside its JSON array
    expect(ids(res.body.expand['tagged(posts)'])).toEqual([id.t1, id.t2].sort());
    const p2 = await admin(`/api/collections/posts/records/${id.p2}?${ex('tagged(posts)')}`);
    expect(ids(p2.body.expand['tagged(posts)'])).toEqual([id.t1]);
  });

  it("matches 0.22's own scenarios on the fixture (demo3 ← demo4)", async () => {
    // daos/record_expand_test.go: "simple back single relation field expand (deprecated syntax)"
    const one = await admin(`/api/collections/demo3/records/lcl9d87w22ml6jy?${ex('demo4(rel_one_no_cascade_required)')}`);
    expect(ids(one.body.expand['demo4(rel_one_no_cascade_required)'])).toEqual(['i9naidtvr6qsgb4', 'qzaqccwrmva4o1n']);
    const many = await admin(`/api/collections/demo3/records/1tmknxy2868d869?${ex('demo4(rel_many_no_cascade_required)')}`);
    expect(ids(many.body.expand['demo4(rel_many_no_cascade_required)'])).toEqual(['qzaqccwrmva4o1n']);
    // "nested indirect expand via single relation field" in TestExpandRecord
    const nested = await admin(`/api/collections/demo3/records/lcl9d87w22ml6jy?${ex('demo4(rel_one_no_cascade_required).self_rel_many.self_rel_many.self_rel_one')}`);
    const first = nested.body.expand['demo4(rel_one_no_cascade_required)'].find((r: any) => r.id === 'qzaqccwrmva4o1n');
    expect(ids(first.expand.self_rel_many)).toEqual(['i9naidtvr6qsgb4', 'qzaqccwrmva4o1n']);
  });

  it('nests: a legacy segment first, in the middle, and after a relation', async () => {
    const res = await admin(`/api/collections/posts/records/${id.p1}?${ex('comments(post).author,profiles(post).post.tagged(posts)')}`);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.expand['comments(post)'].map((c: any) => [c.id, c]));
    expect((byId.get(id.c1) as any).expand.author).toMatchObject({ id: id.ann, name: 'ann' });
    expect((byId.get(id.c2) as any).expand.author).toMatchObject({ id: id.bob, name: 'bob' });
    const profilePost = res.body.expand['profiles(post)'].expand.post;
    expect(profilePost.id).toBe(id.p1);
    expect(ids(profilePost.expand['tagged(posts)'])).toEqual([id.t1, id.t2].sort());

    const fromComment = await admin(`/api/collections/comments/records/${id.c3}?${ex('post.comments(post)')}`);
    expect(ids(fromComment.body.expand.post.expand['comments(post)'])).toEqual([id.c3]);
  });

  it('sits beside the _via_ form in one expand, each under its own key', async () => {
    const res = await admin(`/api/collections/posts/records/${id.p1}?${ex('comments(post),comments_via_post,tagged_via_posts,tagged(posts).posts')}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.expand).sort()).toEqual(['comments(post)', 'comments_via_post', 'tagged(posts)', 'tagged_via_posts']);
    expect(res.body.expand['comments(post)']).toEqual(res.body.expand.comments_via_post);
    expect(ids(res.body.expand['tagged(posts)'])).toEqual(ids(res.body.expand.tagged_via_posts));
    const t1 = res.body.expand['tagged(posts)'].find((t: any) => t.id === id.t1);
    expect(ids(t1.expand.posts)).toEqual([id.p1, id.p2].sort());
    expect(res.body.expand.tagged_via_posts[0].expand).toBeUndefined();
  });

  it("applies the related collection's viewRule for a guest (not its listRule)", async () => {
    const res = await guest(`/api/collections/posts/records/${id.p1}?${ex('comments(post).author,secrets(post)')}`);
    expect(res.status).toBe(200);
    // c2 fails "hidden = false"; comments' null listRule plays no part
    expect(ids(res.body.expand['comments(post)'])).toEqual([id.c1]);
    expect(res.body.expand['comments(post)'][0].expand.author.name).toBe('ann');
    // secrets' viewRule is null: admins only
    expect(res.body.expand['secrets(post)']).toBeUndefined();
    const list = await guest(`/api/collections/posts/records?${ex('comments(post)')}`);
    const p1 = list.body.items.find((r: any) => r.id === id.p1);
    expect(ids(p1.expand['comments(post)'])).toEqual([id.c1]);

    const asAdmin = await admin(`/api/collections/posts/records/${id.p1}?${ex('secrets(post)')}`);
    expect(ids(asAdmin.body.expand['secrets(post)'])).toEqual([id.s1]);
  });

  it('ignores an unknown collection or field, a wrong target and malformed segments, as 0.22 does', async () => {
    const ignored = [
      'nope(post)', // no such collection
      'comments(nope)', // no such field
      'comments(POST)', // field names are case-sensitive
      'comments(text)', // not a relation
      'comments(author)', // a relation to another collection
      'comments(post', 'comments(post)x', '(post)', 'comments()', 'comments(post)(post)', 'comments(po-st)',
      'comments(post).nope', // a failing later level drops the whole path
      'comments(post).post.nope(post)',
    ];
    for (const expand of ignored) {
      const res = await admin(`/api/collections/posts/records/${id.p1}?${ex(expand)}`);
      expect(res.status, expand).toBe(200);
      expect(res.body.expand, expand).toBeUndefined();
    }
    const mixed = await admin(`/api/collections/posts/records/${id.p1}?${ex('nope(post),comments(post),comments(nope)')}`);
    expect(Object.keys(mixed.body.expand)).toEqual(['comments(post)']);
    const list = await admin(`/api/collections/posts/records?${ex(ignored.join(','))}`);
    expect(list.status).toBe(200);
    expect(list.body.items.every((r: any) => r.expand === undefined)).toBe(true);
  });

  it('finds the collection by name in any case or by id; spaces are dropped from the key', async () => {
    const upper = await admin(`/api/collections/posts/records/${id.p2}?${ex('COMMENTS(post)')}`);
    expect(ids(upper.body.expand['COMMENTS(post)'])).toEqual([id.c3]);
    const comments = (await admin('/api/collections/comments')).body;
    const byId = await admin(`/api/collections/posts/records/${id.p2}?${ex(`${comments.id}(post)`)}`);
    expect(ids(byId.body.expand[`${comments.id}(post)`])).toEqual([id.c3]);
    const spaced = await admin(`/api/collections/posts/records/${id.p2}?${ex(' comments( post ) ')}`);
    expect(Object.keys(spaced.body.expand)).toEqual(['comments(post)']);
  });

  it('expands the first 6 levels of a longer path and ignores the rest (either form)', async () => {
    for (const back of ['comments(post)', 'comments_via_post']) {
      const seven = [back, 'post', back, 'post', back, 'post', back];
      const res = await admin(`/api/collections/posts/records/${id.p2}?${ex(seven.join('.'))}`);
      expect(res.status).toBe(200);
      let node = res.body;
      for (const key of seven.slice(0, 6)) {
        const next = node.expand?.[key];
        expect(next, `${back}: ${key}`).toBeDefined();
        node = Array.isArray(next) ? next[0] : next;
      }
      expect(node.id).toBe(id.p2);
      expect(node.expand).toBeUndefined();
    }
  });

  it('can be picked with fields=expand.<collection>(<field>).*', async () => {
    const fields = encodeURIComponent('id,expand.comments(post).text');
    const res = await admin(`/api/collections/posts/records/${id.p2}?${ex('comments(post)')}&fields=${fields}`);
    expect(res.body).toEqual({ id: id.p2, expand: { 'comments(post)': [{ text: 'other' }] } });
  });

  it('works through the JS SDK', async () => {
    const pb = srv.client();
    const rec = await pb.collection('posts').getOne(id.p2, { expand: 'comments(post).author' });
    expect((rec.expand?.['comments(post)'] as any[])[0].expand.author.name).toBe('ann');
  });

  it('expands realtime events the same way, under the subscriber’s rules', async () => {
    const c = await sse();
    const options = encodeURIComponent(JSON.stringify({ query: { expand: 'comments(post).author,profiles(post)' } }));
    expect((await subscribe(c, [`posts/${id.p1}?options=${options}`])).status).toBe(204);
    const upd = await http(srv.url, 'PATCH', `/api/collections/posts/records/${id.p1}`, { body: { title: 'first!' }, token: FIXTURE_ADMIN_TOKEN });
    expect(upd.status).toBe(200);
    const e = await c.next((f) => f.data?.action === 'update');
    const view = await guest(`/api/collections/posts/records/${id.p1}?${ex('comments(post).author,profiles(post)')}`);
    expect(e.data.record.expand).toEqual(view.body.expand);
    expect(ids(e.data.record.expand['comments(post)'])).toEqual([id.c1]);
    expect(e.data.record.expand['profiles(post)'].id).toBe(id.pr1);
  });
});
