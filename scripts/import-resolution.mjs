// How import-x finds the file behind an import (shared by the layer rule in eslint.config.js and
// scripts/check-cycles.mjs): extensionless relative imports of .ts/.tsx files, and the files they
// lead to parsed as TypeScript too (or every edge into a .ts file is lost).
import { createNodeResolver } from 'eslint-plugin-import-x';

export const importResolution = {
  'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
};
