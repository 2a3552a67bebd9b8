// The relation fields' target checks the server makes (schemas/fields/relation.schema.json's
// context keywords: the target exists, is not a view, was not changed), made before saving with
// the collections the dashboard knows, so the editor shows them under the fields without a request.
import { getForm } from '../../engine';
import { contextErrors } from '../../engine/context-errors';
import type { ErrorTree } from '../../lib/schema/error-tree';
import type { KeywordContext } from '../../lib/schema/keyword-checks';
import type { CollectionModel } from '../../lib/collections/types';
import { isRelationField } from '../../fields/relation/field';

type PayloadField = { id?: string; type?: string; options?: Record<string, unknown> };

/** `{schema: {i: {options: …}}}` for the request body's relation fields; null when all pass. */
export function relationTargetErrors(
  body: Record<string, unknown>,
  original: CollectionModel | null,
  known: readonly CollectionModel[],
): ErrorTree | null {
  const form = getForm('fields/relation');
  const collection = (idOrName: string) => {
    const lower = idOrName.toLowerCase();
    return known.find((c) => c.id === idOrName) ?? known.find((c) => c.name.toLowerCase() === lower);
  };
  const schema: ErrorTree = {};
  (body.schema as PayloadField[]).forEach((field, i) => {
    if (!isRelationField(field)) return;
    const old = original?.schema.find((f) => f.id !== '' && f.id === field.id);
    const context: KeywordContext = { collection, collectionType: String(body.type), previous: isRelationField(old) ? old.options : undefined };
    const errors = contextErrors(form.schema, field.options ?? {}, context);
    if (Object.keys(errors).length) schema[String(i)] = { options: errors };
  });
  return Object.keys(schema).length ? { schema } : null;
}
