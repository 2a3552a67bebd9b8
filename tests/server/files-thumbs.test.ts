// /api/files thumbs over HTTP on a copy of the PocketBase 0.22.12 fixture: its pre-generated
// thumbs served as they are, thumbs generated once per mode (checked by decoding them with sharp),
// originals where no thumb applies.
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { describe, expect, it } from 'vitest';
import { srv, withFixtureServer } from '../helpers/fixture-server';
import { AVATAR, USER1, USERS, attach, fetchRaw, fixtureFile, twoTone } from '../helpers/files';

// a streamed response can reach this in-process client before the server saw its 'finish'
withFixtureServer({ settleMs: 200 });

describe('thumbs', () => {
  it('serves the fixture\u2019s pre-generated thumbs byte for byte', async () => {
    for (const size of ['100x100', '70x50', '70x50t', '70x50b', '70x50f', '0x50', '70x0']) {
      const res = await fetchRaw(`/api/files/users/${USER1}/${AVATAR}?thumb=${size}`);
      expect(res.status, size).toBe(200);
      expect(res.body.equals(fixtureFile(USERS, USER1, `thumbs_${AVATAR}`, `${size}_${AVATAR}`)), size).toBe(true);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('content-disposition')).toBe(`inline; filename=${size}_${AVATAR}`);
    }
    // demo3 has no configured thumbs: 100x100 only
    const demo3 = await fetchRaw('/api/files/demo3/mk5fmymtx4wsprk/300_JdfBOieXAW.png?thumb=100x100');
    expect(demo3.body.equals(fixtureFile('wzlqyes4orhoygb', 'mk5fmymtx4wsprk', 'thumbs_300_JdfBOieXAW.png', '100x100_300_JdfBOieXAW.png'))).toBe(true);
  });

  it('serves the original for unconfigured sizes, bad sizes and non-images', async () => {
    const original = fixtureFile(USERS, USER1, AVATAR);
    for (const size of ['999x999', '70x50x', '0x0', 'abc', '50x70', '']) {
      const res = await fetchRaw(`/api/files/users/${USER1}/${AVATAR}?thumb=${size}`);
      expect(res.status, size).toBe(200);
      expect(res.body.equals(original), size).toBe(true);
    }
    const txt = await fetchRaw('/api/files/users/oap640cot4yru2s/test_kfd2wYLxkz.txt?thumb=100x100');
    expect(txt.body.toString()).toBe('test\n');
    const svg = await fetchRaw('/api/files/demo5/qjeql998mtp1azp/logo_vcf_jjg5_tah_9MtIHytOmZ.svg?thumb=100x100');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(fs.existsSync(path.join(srv.dataDir, 'storage', '9n89pl5vkct6330', 'qjeql998mtp1azp', 'thumbs_logo_vcf_jjg5_tah_9MtIHytOmZ.svg'))).toBe(false);
  });

  it('generates each mode once with 0.22\u2019s sizes and crops', async () => {
    // a wide 300x200 and a tall 200x300 image, top half red and bottom half blue
    await attach(USERS, 'users', 'bgs820n361vj1qd', 'avatar', 'wide_abcdefghij.png', await twoTone(300, 200), 'image/png');
    await attach(USERS, 'users', 'oap640cot4yru2s', 'avatar', 'tall_abcdefghij.png', await twoTone(200, 300), 'image/png');

    const expectations: Array<[string, string, number, number]> = [
      ['bgs820n361vj1qd/wide_abcdefghij.png', '100x100', 100, 100],
      ['bgs820n361vj1qd/wide_abcdefghij.png', '70x50', 70, 50],
      ['bgs820n361vj1qd/wide_abcdefghij.png', '70x50f', 70, 46], // fit: 300x200 → 70x46 (truncated)
      ['bgs820n361vj1qd/wide_abcdefghij.png', '0x50', 75, 50],
      ['bgs820n361vj1qd/wide_abcdefghij.png', '70x0', 70, 47], // 46.67 rounds to 47
      ['oap640cot4yru2s/tall_abcdefghij.png', '70x50t', 70, 50],
      ['oap640cot4yru2s/tall_abcdefghij.png', '70x50b', 70, 50],
      ['oap640cot4yru2s/tall_abcdefghij.png', '70x50f', 33, 50],
    ];
    for (const [file, size, width, height] of expectations) {
      const res = await fetchRaw(`/api/files/users/${file}?thumb=${size}`);
      expect(res.status, size).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(res.body).metadata();
      expect([meta.format, meta.width, meta.height], `${file} ${size}`).toEqual(['png', width, height]);
    }

    // crop from the top of the tall image is all red, from the bottom all blue, the centre both
    const pixel = async (file: string, size: string, y: number) => {
      const res = await fetchRaw(`/api/files/users/${file}?thumb=${size}`);
      const { data, info } = await sharp(res.body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const i = (y * info.width + 35) * info.channels;
      return [data[i], data[i + 1], data[i + 2]];
    };
    const red = (c: number[]) => c[0] > 200 && c[2] < 50;
    const blue = (c: number[]) => c[2] > 200 && c[0] < 50;
    expect(red(await pixel('oap640cot4yru2s/tall_abcdefghij.png', '70x50t', 49))).toBe(true);
    expect(blue(await pixel('oap640cot4yru2s/tall_abcdefghij.png', '70x50b', 0))).toBe(true);
    expect(red(await pixel('oap640cot4yru2s/tall_abcdefghij.png', '70x50', 0))).toBe(true);
    expect(blue(await pixel('oap640cot4yru2s/tall_abcdefghij.png', '70x50', 49))).toBe(true);

    // cached at storage/{collectionId}/{recordId}/thumbs_{name}/{size}_{name} with a sidecar, made once
    const cached = path.join(srv.dataDir, 'storage', USERS, 'bgs820n361vj1qd', 'thumbs_wide_abcdefghij.png', '70x50_wide_abcdefghij.png');
    expect(fs.existsSync(cached)).toBe(true);
    expect(JSON.parse(fs.readFileSync(cached + '.attrs', 'utf8'))['user.content_type']).toBe('image/png');
    const mtime = fs.statSync(cached).mtimeMs;
    const again = await fetchRaw('/api/files/users/bgs820n361vj1qd/wide_abcdefghij.png?thumb=70x50');
    expect(again.body.equals(fs.readFileSync(cached))).toBe(true);
    expect(fs.statSync(cached).mtimeMs).toBe(mtime);
  });

  it('makes one thumb for concurrent requests, and keeps jpg/gif formats', async () => {
    await attach('wzlqyes4orhoygb', 'demo3', '7nwo8tuiatetxdm', 'files', 'photo_abcdefghij.jpg', await twoTone(160, 120, 'jpeg'), 'image/jpeg', true);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => fetchRaw('/api/files/demo3/7nwo8tuiatetxdm/photo_abcdefghij.jpg?thumb=100x100')),
    );
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.equals(results[0].body)).toBe(true);
    }
    expect(r0meta(await sharp(results[0].body).metadata())).toEqual(['jpeg', 100, 100]);
    expect(results[0].headers.get('content-type')).toBe('image/jpeg');
    const thumbDir = path.join(srv.dataDir, 'storage', 'wzlqyes4orhoygb', '7nwo8tuiatetxdm', 'thumbs_photo_abcdefghij.jpg');
    expect(fs.readdirSync(thumbDir).sort()).toEqual(['100x100_photo_abcdefghij.jpg', '100x100_photo_abcdefghij.jpg.attrs']);

    await attach('wzlqyes4orhoygb', 'demo3', 'lcl9d87w22ml6jy', 'files', 'anim_abcdefghij.gif', await twoTone(50, 30, 'gif'), 'image/gif', true);
    const gif = await fetchRaw('/api/files/demo3/lcl9d87w22ml6jy/anim_abcdefghij.gif?thumb=100x100');
    expect(r0meta(await sharp(gif.body).metadata())).toEqual(['gif', 100, 100]);

    // webp is not thumbed: the original comes back
    const webp = await twoTone(50, 30, 'webp');
    await attach('wzlqyes4orhoygb', 'demo3', 'mk5fmymtx4wsprk', 'files', 'pic_abcdefghij.webp', webp, 'image/webp', true);
    const w = await fetchRaw('/api/files/demo3/mk5fmymtx4wsprk/pic_abcdefghij.webp?thumb=100x100');
    expect(w.body.equals(webp)).toBe(true);
    expect(w.headers.get('content-disposition')).toBe('inline; filename=pic_abcdefghij.webp');
  });

  it('falls back to the original when the image cannot be decoded', async () => {
    const junk = Buffer.from('definitely not a png');
    await attach(USERS, 'users', USER1, 'avatar', 'broken_abcdefghij.png', junk, 'image/png');
    const res = await fetchRaw(`/api/files/users/${USER1}/broken_abcdefghij.png?thumb=100x100`);
    expect(res.status).toBe(200);
    expect(res.body.equals(junk)).toBe(true);
    srv.app.db.prepare('UPDATE users SET avatar = ? WHERE id = ?').run(AVATAR, USER1);
  });
});

const r0meta = (m: Metadata) => [m.format, m.width, m.height];
