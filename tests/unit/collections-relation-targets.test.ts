// The collection editor's pre-save check of relation targets (src/pages/collections/relation-targets.ts):
// the errors the server answers with (same codes and words), at the request body's field positions.
import { describe, expect, it } from 'vitest';
import { collectionPayload, newCollection } from '../../src/lib/collections/payload';
import type { CollectionModel, SchemaField } from '../../src/lib/collections/types';
import { relationTargetErrors } from '../../src/pages/collections/relation-targets';

const collection = (id: string, name: string, type: CollectionModel['type'], schema: SchemaField[] = []): CollectionModel => ({
  ...newCollection(type),
  id,
  name,
  schema,
});
const relation = (id: string, collectionId: string, extra: Partial<SchemaField> = {}): SchemaField =>
  ({ id, name: `r_${id}`, type: 'relation', system: false, required: false, presentable: false, options: { collectionId, maxSelect: 1 }, ...extra }) as SchemaField;

const users = collection('users0000000001', 'users', 'auth');
const cheap = collection('cheap0000000001', 'cheap', 'view');
const known = [users, cheap];

describe('relationTargetErrors', () => {
  it('passes relations to existing non-view collections', () => {
    const draft = collection('', 'posts', 'base', [relation('', users.id)]);
    expect(relationTargetErrors(collectionPayload(draft), null, known)).toBeNull();
  });

  it('reports a missing, a view and a changed target where the server would', () => {
    const original = collection('posts0000000001', 'posts', 'base', [relation('rel0001', users.id)]);
    const draft = {
      ...original,
      schema: [
        relation('gone001', users.id, { toDelete: true }),
        relation('rel0001', cheap.id),
        relation('', 'nope'),
      ],
    };
    expect(relationTargetErrors(collectionPayload(draft), original, known)).toEqual({
      schema: {
        0: { options: { collectionId: { code: 'validation_field_relation_change', message: 'The relation collection cannot be changed.' } } },
        1: { options: { collectionId: { code: 'validation_field_invalid_relation', message: "The relation collection doesn't exist." } } },
      },
    });
    const fresh = collection('', 'posts', 'base', [relation('', cheap.id)]);
    expect(relationTargetErrors(collectionPayload(fresh), null, known)?.schema).toEqual({
      0: { options: { collectionId: { code: 'validation_field_non_view_base_relation_collection', message: 'Non view collections are not allowed to have a view relation.' } } },
    });
    const view = { ...fresh, type: 'view' as const };
    expect(relationTargetErrors({ ...collectionPayload(view), schema: collectionPayload(fresh).schema }, null, known)).toBeNull();
  });
});
