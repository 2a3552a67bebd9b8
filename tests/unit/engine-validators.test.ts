// The validators compiled at build time (src/engine/vite-plugin-validators.ts) must judge data as
// the runtime ajv does: on every contract sample (tests/contract/samples) and a few edge documents,
// the lite renderer's strict functions agree with the strict runtime ajv (verdict and errors) and
// with the runtime rjsf validator (the errors a form shows), and rjsf's precompiled validators agree
// with the runtime rjsf validator.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { liteValidators } from 'virtual:outpost-validators';
import { rjsfValidators } from 'virtual:outpost-rjsf-validators';
import { precompiledValidatorFor } from '../../src/engine/rjsf-validators';
import { localizeFile } from '../../src/lib/i18n/file-words';
import { getForm, listForms } from '../../src/engine';
import { createStrictAjv } from '../../src/lib/schema/ajv';
import { litePlan } from '../../src/engine/lite-support';
import { resultOf, validateWith } from '../../src/engine/validation';
import { validator as runtimeValidator } from '../../src/engine/validator';

const SAMPLES = path.resolve(import.meta.dirname, '..', 'contract', 'samples');

/** Contract samples plus edge documents (empty, mismatched confirmation, wrong types, a bare value). */
function documents(name: string): unknown[] {
  const read = (kind: string) => {
    const file = path.join(SAMPLES, `${name}.${kind}.json`);
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]) : [];
  };
  return [
    ...read('valid'),
    ...read('invalid'),
    {},
    { email: 'a@b.co', password: '1234567890', passwordConfirm: '1234567899' },
    { email: 'a@b.co', password: '1234567890', passwordConfirm: '1234567890', changePassword: true, id: 'x' },
    { email: 5, password: null, passwordConfirm: ['x'] },
    { email: 'ø@b.co', password: '😀😀😀😀😀😀😀😀😀', passwordConfirm: '😀😀😀😀😀😀😀😀😀' },
    'not an object',
  ];
}

const summary = (errors: readonly { keyword: string; instancePath: string; schemaPath: string; params: unknown }[] | null | undefined) =>
  (errors ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath, schemaPath: e.schemaPath, params: e.params }));

it('compiles every form for exactly one renderer', () => {
  for (const name of listForms()) {
    const { schema, uiSchema } = getForm(name);
    const lite = litePlan(schema, uiSchema) !== null;
    expect(name in liteValidators, name).toBe(lite);
    expect(name in rjsfValidators, name).toBe(!lite);
  }
});

describe.each(listForms())('%s', (name) => {
  const { schema, uiSchema } = getForm(name);
  const docs = documents(name);

  it('has samples', () => {
    expect(docs.length).toBeGreaterThan(8);
  });

  if (name in liteValidators) {
    const precompiled = liteValidators[name];
    const strict = createStrictAjv().compile(schema);

    it('lite: the precompiled function agrees with the strict runtime ajv', () => {
      for (const doc of docs) {
        const ok = strict(doc);
        expect(precompiled(doc), JSON.stringify(doc)).toBe(ok);
        expect(summary(precompiled.errors), JSON.stringify(doc)).toEqual(summary(strict.errors));
      }
    });

    it('lite: the form shows what the runtime rjsf validator would show', () => {
      for (const doc of docs) {
        if (!doc || typeof doc !== 'object') continue;
        const lite = resultOf(schema, precompiled, doc);
        const runtime = validateWith(runtimeValidator, schema, doc, uiSchema);
        expect(lite.isValid, JSON.stringify(doc)).toBe(runtime.isValid);
        expect(lite.errorSchema, JSON.stringify(doc)).toEqual(runtime.errorSchema);
      }
    });
  } else {
    it('rjsf: the precompiled validator agrees with the runtime rjsf validator', () => {
      const precompiled = precompiledValidatorFor(schema)!;
      expect(precompiled).toBeDefined();
      for (const doc of docs) {
        if (!doc || typeof doc !== 'object') continue;
        const a = validateWith(precompiled, schema, doc, uiSchema);
        const b = validateWith(runtimeValidator, schema, doc, uiSchema);
        expect(a.isValid, JSON.stringify(doc)).toBe(b.isValid);
        expect(a.errorSchema, JSON.stringify(doc)).toEqual(b.errorSchema);
        expect(precompiled.isValid(schema, doc, schema)).toBe(runtimeValidator.isValid(schema, doc, schema));
      }
    });

    it('rjsf: the precompiled validator judges the schema in another language alike (words play no part)', () => {
      const marked: Record<string, string> = {};
      const mark = (node: unknown, ptr: string): void => {
        if (!node || typeof node !== 'object') return;
        for (const [k, v] of Object.entries(node)) {
          const p = `${ptr}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
          if (typeof v === 'string') marked[`schemas/${name}.schema.json#${p}`] = `«${v}»`;
          else mark(v, p);
        }
      };
      mark(schema, '');
      const translated = localizeFile(`schemas/${name}.schema.json`, schema, marked);
      const precompiled = precompiledValidatorFor(schema)!;
      for (const doc of docs) {
        if (!doc || typeof doc !== 'object') continue;
        expect(precompiled.isValid(translated, doc, translated), JSON.stringify(doc)).toBe(runtimeValidator.isValid(schema, doc, schema));
        expect(validateWith(precompiled, translated, doc, uiSchema).isValid, JSON.stringify(doc)).toBe(validateWith(runtimeValidator, schema, doc, uiSchema).isValid);
      }
    });
  }
});
