// Helpers shared by the /api/files tests (tests/server/files-*.test.ts) on the file's fixture
// server (tests/helpers/fixture-server.ts): the fixture's names, raw fetches, and images made
// and attached to records.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { srv } from './fixture-server';
import { FIXTURE_DIR } from './server';
import { getStorage } from '../../server/services/storage';

export const USERS = '_pb_users_auth_';
export const USER1 = '4q1xlclmfloku33';
export const AVATAR = '300_1SEi6Q6U72.png';
export const PROTECTED = '/api/files/demo1/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png';

export const fixtureFile = (...p: string[]) => fs.readFileSync(path.join(FIXTURE_DIR, 'storage', ...p));

export async function fetchRaw(p: string, init: RequestInit = {}) {
  const res = await fetch(srv.url + p, init);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** A width x height PNG: top half red, bottom half blue. */
export function twoTone(width: number, height: number, format: 'png' | 'jpeg' | 'gif' | 'webp' = 'png'): Promise<Buffer> {
  const top = Math.floor(height / 2);
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (y < top) raw[i] = 255;
      else raw[i + 2] = 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer();
}

/** Stores `data` as a file of a record and puts its name in the record's field. */
export async function attach(collectionId: string, table: string, recordId: string, field: string, name: string, data: Buffer, type: string, multi = false) {
  await getStorage(srv.app.ctx).save(collectionId, recordId, name, data, type);
  const value = multi ? JSON.stringify([name]) : name;
  srv.app.db.prepare(`UPDATE "${table}" SET "${field}" = ? WHERE id = ?`).run(value, recordId);
}
