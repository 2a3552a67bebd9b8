// The layer rule in eslint.config.js (import-x/no-restricted-paths) must keep firing: a resolver
// that finds no file silently passes every import. Lints imports that break each rule, and one
// that keeps it, as if they sat in the layer's folder.
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/gen-docs';

const eslint = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('dashboard layers', () => {
  it.each([
    ['src/engine/x.ts', "import { Router } from '../app/Router';", /host/],
    ['src/engine/x.ts', "import { pb } from '../api/client';", /host/],
    ['src/engine/x.ts', "import { collectionsState } from '../state/collections';", /host/],
    ['src/widgets/record/x.ts', "export const load = () => import('../../pages/records/editor/RecordEditorPanel');", /Widgets/],
    ['src/widgets/x.ts', "import { SchemaForm } from '../engine';", /Widgets/],
    ['src/ui/x.ts', "import { FormContext } from '../widgets/form-context';", /UI primitives/],
    ['src/lib/x.ts', "import { OverlayPanel } from '../ui/OverlayPanel';", /src\/lib/],
    ['src/api/x.ts', "import { navigate } from '../shell/navigation';", /events/],
    ['src/pages/x.ts', "import { Router } from '../app/Router';", /src\/shell/],
    ['src/shell/x.ts', "import { ScreenView } from '../engine/ScreenView';", /shell's services/],
    ['src/engine/x.ts', "import { addToast } from '../shell/toasts';", /host/],
  ])('%s may not: %s', async (file, code, message) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  }, 30_000);

  it('lets each layer import the ones below it', async () => {
    expect(await layerErrors('src/pages/x.ts', "import { SchemaForm } from '../engine';\nimport { addToast } from '../shell/toasts';")).toEqual([]);
    expect(await layerErrors('src/app/x.ts', "import NotFoundPage from '../pages/NotFoundPage';\nimport { addToast } from '../shell/toasts';")).toEqual([]);
    expect(await layerErrors('src/shell/x.ts', "import { OverlayPanel } from '../ui/OverlayPanel';\nimport { appState } from '../state/app';")).toEqual([]);
    expect(await layerErrors('src/engine/x.ts', "import { OverlayPanel } from '../ui/OverlayPanel';\nimport { WIDGET_OPTIONS } from '../widgets';")).toEqual([]);
    expect(await layerErrors('src/widgets/x.ts', "import { pb } from '../api/client';\nimport { copyText } from '../lib/browser-io';")).toEqual([]);
  }, 30_000);
});

it('gives every folder of src/ with code a zone, the top (app) excepted', async () => {
  const config = await eslint.calculateConfigForFile(path.join(ROOT, 'src', 'main.tsx'));
  const zones = (config.rules['import-x/no-restricted-paths'][1] as { zones: Array<{ target: string | string[] }> }).zones;
  const targets = new Set(zones.flatMap((z) => [z.target].flat()).map((t) => t.replace(/^\.\/src\//, '')));
  const folders = fs.readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.readdirSync(path.join(ROOT, 'src', e.name), { recursive: true }).some((f) => /\.tsx?$/.test(String(f))))
    .map((e) => e.name);
  expect(folders).toContain('pages');
  expect(folders.filter((f) => f !== 'app' && !targets.has(f)), 'folders no zone covers').toEqual([]);
});

