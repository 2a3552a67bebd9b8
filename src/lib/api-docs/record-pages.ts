// The record pages of a collection's API docs: List/Search, View, Create, Update, Delete, Realtime.
import { fieldDefinition } from '../../fields/registry';
import type { CollectionModel } from '../collections/types';
import { error, GENERIC_400, json, NOT_FOUND, ONLY_ADMINS, pageTitle, param, readQueryParams, ruleInWords, sdkHeader, type DocPage, type DocsContext } from './doc-page';
import { bodyParams, exampleBody, exampleRecord, fileFields, responseFields, type DocParam } from './fields';

export function recordPages(collection: CollectionModel, ctx: DocsContext): DocPage[] {
  const name = collection.name;
  const { words } = ctx;
  const access = (rule: string | null | undefined) => ruleInWords(rule, words);
  const readParams = readQueryParams(collection, words);
  const path = `/api/collections/${name}/records`;
  const record = exampleRecord(collection);
  const fields = responseFields(collection, ctx.lookup, words);
  const fieldNames = fields.map((f) => f.name);
  const files = fileFields(collection);
  const idParam = param('id', 'String', words('apiDocs.idParam', { name }), true);
  const head = sdkHeader(ctx);
  const writeNote = files.length
    ? [words('apiDocs.fileNote', { fields: files.join(', ') })]
    : [];
  const common = { pathParams: [] as DocParam[], queryParams: [] as DocParam[], bodyParams: [] as DocParam[], fields: [] as DocParam[], notes: [] as string[] };

  const hasCreated = collection.type !== 'view' || collection.schema.some((f) => f.name === 'created');
  const exampleFilter = hasCreated ? 'created >= "2022-01-01 00:00:00"' : 'id != ""';
  const list: DocPage = {
    ...common,
    id: 'list',
    tab: words('apiDocs.tab.list'),
    title: pageTitle(words, words('apiDocs.tab.list'), name),
    intro: [words('apiDocs.list.intro', { name })],
    method: 'GET',
    path,
    access: access(collection.listRule),
    rule: collection.listRule,
    queryParams: [
      param('page', 'Number', words('apiDocs.param.page')),
      param('perPage', 'Number', words('apiDocs.param.perPage')),
      param('sort', 'String', words('apiDocs.param.sort', { fields: fieldNames.join(', ') })),
      param('filter', 'String', words('apiDocs.param.filter', { fields: fieldNames.join(', ') })),
      ...readParams,
      param('skipTotal', 'Boolean', words('apiDocs.param.skipTotal')),
    ],
    fields,
    responses: [
      { status: 200, body: json({ page: 1, perPage: 30, totalItems: 2, totalPages: 1, items: [record, { ...record, id: 'RECORD_ID_2' }] }) },
      error(400, GENERIC_400),
      error(403, collection.listRule === null ? ONLY_ADMINS : 'Only admins can filter by @collection.'),
    ],
    sdk:
      head +
      `// one page\nconst resultList = await pb.collection('${name}').getList(1, 50, {\n    filter: '${exampleFilter}',\n});\n\n` +
      `// every record (batched requests)\nconst records = await pb.collection('${name}').getFullList({\n    sort: '-created',\n});\n\n` +
      `// the first match\nconst firstItem = await pb.collection('${name}').getFirstListItem('id != ""', {\n    expand: '${collection.schema.find((f) => fieldDefinition(f.type).expandable)?.name ?? 'relField1,relField2.subRelField'}',\n});`,
  };

  const view: DocPage = {
    ...common,
    id: 'view',
    tab: words('apiDocs.tab.view'),
    title: pageTitle(words, words('apiDocs.tab.view'), name),
    intro: [words('apiDocs.view.intro', { name })],
    method: 'GET',
    path: `${path}/:id`,
    access: access(collection.viewRule),
    rule: collection.viewRule,
    pathParams: [idParam],
    queryParams: readParams,
    fields,
    responses: [{ status: 200, body: json(record) }, error(403, ONLY_ADMINS), error(404, NOT_FOUND)],
    sdk: head + `const record = await pb.collection('${name}').getOne('RECORD_ID', {\n    expand: 'relField1,relField2.subRelField',\n});`,
  };

  if (collection.type === 'view') {
    const viewNote = words('apiDocs.viewNote');
    return [
      { ...list, notes: [viewNote] },
      { ...view, notes: [viewNote] },
    ];
  }

  const create: DocPage = {
    ...common,
    id: 'create',
    tab: words('apiDocs.tab.create'),
    title: pageTitle(words, words('apiDocs.tab.create'), name),
    intro: [words('apiDocs.create.intro', { name })],
    method: 'POST',
    path,
    access: access(collection.createRule),
    rule: collection.createRule,
    queryParams: readParams,
    bodyParams: bodyParams(collection, true, ctx.lookup, words),
    fields,
    responses: [
      { status: 200, body: json(record) },
      error(400, 'Failed to create record.', { [collection.schema[0]?.name ?? 'id']: { code: 'validation_required', message: 'Missing required value.' } }),
      error(403, ONLY_ADMINS),
    ],
    sdk: head + `const data = ${json(exampleBody(collection, true))};\n\nconst record = await pb.collection('${name}').create(data);`,
    notes: [
      ...writeNote,
      ...(collection.type === 'auth' ? [words('apiDocs.create.authNote')] : []),
    ],
  };

  const update: DocPage = {
    ...common,
    id: 'update',
    tab: words('apiDocs.tab.update'),
    title: pageTitle(words, words('apiDocs.tab.update'), name),
    intro: [words('apiDocs.update.intro', { name })],
    method: 'PATCH',
    path: `${path}/:id`,
    access: access(collection.updateRule),
    rule: collection.updateRule,
    pathParams: [idParam],
    queryParams: readParams,
    bodyParams: bodyParams(collection, false, ctx.lookup, words),
    fields,
    responses: [
      { status: 200, body: json(record) },
      error(400, 'Failed to update record.', { [collection.schema[0]?.name ?? 'id']: { code: 'validation_required', message: 'Missing required value.' } }),
      error(403, ONLY_ADMINS),
      error(404, NOT_FOUND),
    ],
    sdk: head + `const data = ${json(exampleBody(collection, false))};\n\nconst record = await pb.collection('${name}').update('RECORD_ID', data);`,
    notes: [
      ...writeNote,
      words('apiDocs.update.note'),
    ],
  };

  const del: DocPage = {
    ...common,
    id: 'delete',
    tab: words('apiDocs.tab.delete'),
    title: pageTitle(words, words('apiDocs.tab.delete'), name),
    intro: [words('apiDocs.delete.intro', { name })],
    method: 'DELETE',
    path: `${path}/:id`,
    access: access(collection.deleteRule),
    rule: collection.deleteRule,
    pathParams: [idParam],
    responses: [
      { status: 204, body: 'null' },
      error(400, 'Failed to delete record. Make sure that the record is not part of a required relation reference.'),
      error(403, ONLY_ADMINS),
      error(404, NOT_FOUND),
    ],
    sdk: head + `await pb.collection('${name}').delete('RECORD_ID');`,
  };

  const realtime: DocPage = {
    ...common,
    id: 'realtime',
    tab: words('apiDocs.tab.realtime'),
    title: pageTitle(words, words('apiDocs.tab.realtime'), name),
    intro: [words('apiDocs.realtime.intro1'), words('apiDocs.realtime.intro2', { name })],
    method: 'GET',
    path: '/api/realtime',
    access: words('apiDocs.realtime.access', { list: access(collection.listRule), view: access(collection.viewRule) }),
    rule: null,
    queryParams: [
      param('filter', 'String', words('apiDocs.param.subscriptionFilter')),
      ...readParams.map((p) => ({ ...p, description: words('apiDocs.param.subscriptionOption', { description: p.description }) })),
    ],
    fields,
    responses: [
      { status: 200, body: `id:CLIENT_ID\nevent:PB_CONNECT\ndata:{"clientId":"CLIENT_ID"}\n\nid:CLIENT_ID\nevent:${name}/*\ndata:${JSON.stringify({ record, action: 'create' })}` },
      error(403, "The current and the previous request authorization don't match."),
      error(404, 'Missing or invalid client id.'),
    ],
    sdk:
      head +
      `// (optionally) sign in first: events follow the rules for that account\n\n` +
      `// changes of any ${name} record\npb.collection('${name}').subscribe('*', function (e) {\n    console.log(e.action, e.record);\n}, { expand: 'relField1' });\n\n` +
      `// changes of one record\npb.collection('${name}').subscribe('RECORD_ID', function (e) {\n    console.log(e.action, e.record);\n});\n\n` +
      `// stop\npb.collection('${name}').unsubscribe('RECORD_ID');\npb.collection('${name}').unsubscribe('*');\npb.collection('${name}').unsubscribe();`,
    notes: [
      words('apiDocs.realtime.note1'),
      words('apiDocs.realtime.note2'),
    ],
  };

  return [list, view, create, update, del, realtime];
}
