// Helpers shared by the /api/backups tests (tests/server/backups-*.test.ts) on the file's fixture
// server (tests/helpers/fixture-server.ts): requests as the fixture's admin, and the archives' and
// data dir's inspection.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { srv } from './fixture-server';
import { FIXTURE_ADMIN_TOKEN, http } from './server';

export const USER1_AUTH =
  'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.UwD8JvkbQtXpymT09d7J6fdA0aP9g4FJ1GPh_ggEkzc';
export const ADMIN = FIXTURE_ADMIN_TOKEN;

export const backupsDir = () => path.join(srv.dataDir, 'backups');
export const api = (method: string, p: string, opts: Parameters<typeof http>[3] = {}) => http(srv.url, method, p, { token: ADMIN, ...opts });

export async function upload(name: string, data: Buffer, token = ADMIN, type = 'application/zip') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${srv.url}/api/backups/upload`, { method: 'POST', body: form, headers: token ? { Authorization: token } : {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export async function fileToken(): Promise<string> {
  const res = await api('POST', '/api/files/token');
  return res.body.token as string;
}

export async function waitIdle() {
  for (let i = 0; i < 200; i++) {
    const h = await http(srv.url, 'GET', '/api/health');
    if (h.body?.data?.canBackup) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('backup still running');
}

/** sha256 of every file below `dir` (relative names), to compare trees. */
export function treeHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    if (!fs.existsSync(abs)) return;
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out[r] = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, r))).digest('hex');
    }
  };
  walk('');
  return out;
}

export async function allRecords(): Promise<Record<string, unknown[]>> {
  const cols = await api('GET', '/api/collections?perPage=500');
  const out: Record<string, unknown[]> = {};
  for (const c of cols.body.items as Array<{ name: string; type: string }>) {
    const res = await api('GET', `/api/collections/${c.name}/records?perPage=500&sort=id`);
    out[c.name] = res.body.items;
  }
  return out;
}

/** An SQLite database without PocketBase's tables. */
export function plainSqlite(): Buffer {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-sqlite-')), 'plain.db');
  const db = new Database(file);
  db.exec('CREATE TABLE t (x)');
  db.close();
  const bytes = fs.readFileSync(file);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return bytes;
}


/** Rewrites an entry's uncompressed size to ~2 GB in its local and central headers. */
export function claimHuge(zip: Buffer, name: string): Buffer {
  return claimSize(zip, name, 2_000_000_000);
}

/** Rewrites an entry's declared uncompressed size in its local and central headers. */
export function claimSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const nameBuf = Buffer.from(name);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50 && out.subarray(i + 30, i + 30 + nameBuf.length).equals(nameBuf)) out.writeUInt32LE(size, i + 22);
    if (sig === 0x02014b50 && out.subarray(i + 46, i + 46 + nameBuf.length).equals(nameBuf)) out.writeUInt32LE(size, i + 24);
  }
  return out;
}
