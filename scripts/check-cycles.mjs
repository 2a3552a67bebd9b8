// `npm test` step: no import cycle in src/ or server/, lazy import() included (import-x/no-cycle
// skips type-only imports, which vanish from the build). Runs ESLint with only that rule so the
// everyday lint stays fast.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { importResolution } from './import-resolution.mjs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  allowInlineConfig: false,
  overrideConfig: [
    {
      files: ['**/*.{ts,tsx}'],
      languageOptions: { parser: tseslint.parser },
      plugins: { 'import-x': importX },
      settings: importResolution,
      rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
    },
  ],
});
const t0 = Date.now();
const results = await eslint.lintFiles(['src', 'server']);
const messages = results.flatMap((r) => r.messages.map((m) => ({ ...m, file: path.relative(root, r.filePath) })));
for (const m of messages) console.log(`${m.file}:${m.line}  ${m.message}`);
console.log(`${results.length} files, ${messages.length} cycle import(s), ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(messages.length ? 1 : 0);
