// The server's lint rules in eslint.config.js must keep firing: routes run no SQL (server/http
// calls no `.prepare(`), only the stores and the composition root hold the raw connections (no
// other module imports the handle's type or helpers, nor calls `.prepare(`), the domain never
// imports the HTTP layer, and the server imports the dashboard's plain TypeScript (src/lib) only.
// Lints code that breaks each rule, and code that keeps it, as if it sat in the folder.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/gen-docs';

const eslint = new ESLint({ cwd: ROOT });
const RULES = new Set(['import-x/no-restricted-paths', 'no-restricted-imports', 'no-restricted-syntax']);

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => RULES.has(m.ruleId ?? '')).map((m) => m.message);
}

describe('server layers', () => {
  it.each([
    ['server/http/x.ts', "export const n = (db: { prepare(sql: string): unknown }) => db.prepare('SELECT 1');", /No SQL in server\/http/],
    ['server/http/x.ts', "import { transaction } from '../db/database';\nexport { transaction };", /Only the stores and the composition root hold the raw connection/],
    ['server/records/x.ts', "import type { DB } from '../db/database';\nexport type Handle = DB;", /Only the stores and the composition root hold the raw connection/],
    ['server/realtime/x.ts', "import { openDatabase } from '../db/database';\nexport { openDatabase };", /Only the stores and the composition root hold the raw connection/],
    ['server/records/x.ts', "export const n = (db: { prepare(sql: string): unknown }) => db.prepare('SELECT 1');", /No SQL outside the stores/],
    ['server/http/x.ts', "export { writeSchema } from '../collections/store';", /writeSchema hands out the raw connection/],
    ['server/main.ts', "export const n = (db: { prepare(sql: string): unknown }) => db.prepare('SELECT 1');", /No SQL outside the stores/],
    ['server/records/x.ts', "export { registerAdmins } from '../http/admins';", /must not import the HTTP layer/],
    ['server/realtime/x.ts', "export { bindForm } from '../http/form-bind';", /must not import the HTTP layer/],
    ['server/db/x.ts', "export { registerAuth } from '../http/auth';", /must not import the HTTP layer/],
    ['server/core/x.ts', "export { createTransformErrors } from '../../src/engine/messages';", /src\/lib only/],
    ['server/http/x.ts', "export { getForm } from '../../src/engine/schemas';", /src\/lib only/],
    ['server/services/x.ts', "export { addToast } from '../../src/shell/toasts';", /src\/lib only/],
    ['server/records/x.ts', "export { default } from '../../src/pages/NotFoundPage';", /src\/lib only/],
  ])('%s may not: %s', async (file, code, message) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  }, 30_000);

  it('lets routes call the domain, the stores and the composition root hold the handle, and the server import src/lib', async () => {
    expect(await layerErrors('server/http/x.ts', "export { findAdminByFileToken } from '../services/admins';")).toEqual([]);
    expect(await layerErrors('server/http/x.ts', "export { QueryTimeoutError } from '../db/database';")).toEqual([]);
    expect(await layerErrors('server/app.ts', "import { openDatabase } from './db/database';\nexport const db = openDatabase(':memory:');")).toEqual([]);
    expect(await layerErrors('server/core/x.ts', "export { createStrictAjv } from '../../src/lib/schema/ajv';")).toEqual([]);
    expect(await layerErrors('server/records/store.ts', "import type { DB } from '../db/database';\nexport const n = (db: DB) => db.prepare('SELECT 1').get();")).toEqual([]);
  }, 30_000);
});
