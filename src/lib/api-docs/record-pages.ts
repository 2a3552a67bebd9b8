// The record pages of a collection's API docs: List/Search, View, Create, Update, Delete, Realtime.
import { fieldDefinition } from '../../fields/registry';
import type { CollectionModel } from '../collections/types';
import { error, GENERIC_400, json, NOT_FOUND, ONLY_ADMINS, param, readQueryParams, ruleInWords, sdkHeader, type DocPage, type DocsContext } from './doc-page';
import { bodyParams, exampleBody, exampleRecord, fileFields, responseFields, type DocParam } from './fields';

export function recordPages(collection: CollectionModel, ctx: DocsContext): DocPage[] {
  const name = collection.name;
  const path = `/api/collections/${name}/records`;
  const record = exampleRecord(collection);
  const fields = responseFields(collection, ctx.lookup);
  const fieldNames = fields.map((f) => f.name);
  const files = fileFields(collection);
  const idParam = param('id', 'String', `The id of the ${name} record.`, true);
  const head = sdkHeader(ctx);
  const writeNote = files.length
    ? [`File fields (${files.join(', ')}) are sent as multipart/form-data; the SDK does this when a value is a File or Blob.`]
    : [];
  const common = { pathParams: [] as DocParam[], queryParams: [] as DocParam[], bodyParams: [] as DocParam[], fields: [] as DocParam[], notes: [] as string[] };

  const hasCreated = collection.type !== 'view' || collection.schema.some((f) => f.name === 'created');
  const exampleFilter = hasCreated ? 'created >= "2022-01-01 00:00:00"' : 'id != ""';
  const list: DocPage = {
    ...common,
    id: 'list',
    tab: 'List/Search',
    title: `List/Search (${name})`,
    intro: [`Returns a paginated list of ${name} records, optionally filtered and sorted.`],
    method: 'GET',
    path,
    access: ruleInWords(collection.listRule),
    rule: collection.listRule,
    queryParams: [
      param('page', 'Number', 'The page of the list (default 1).'),
      param('perPage', 'Number', 'Records per page (default 30, at most 500).'),
      param('sort', 'String', `Sort fields, comma separated; "-" in front for descending, e.g. "-created,id". Also @random. Fields: ${fieldNames.join(', ')}.`),
      param('filter', 'String', `A filter expression, e.g. (id='abc' && created>'2022-01-01'). Fields: ${fieldNames.join(', ')}. Non-admins cannot use @collection.* or @request.* here.`),
      ...readQueryParams(collection),
      param('skipTotal', 'Boolean', 'Skips the total count (faster); totalItems and totalPages are then -1.'),
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
    tab: 'View',
    title: `View (${name})`,
    intro: [`Returns one ${name} record by its id.`],
    method: 'GET',
    path: `${path}/:id`,
    access: ruleInWords(collection.viewRule),
    rule: collection.viewRule,
    pathParams: [idParam],
    queryParams: readQueryParams(collection),
    fields,
    responses: [{ status: 200, body: json(record) }, error(403, ONLY_ADMINS), error(404, NOT_FOUND)],
    sdk: head + `const record = await pb.collection('${name}').getOne('RECORD_ID', {\n    expand: 'relField1,relField2.subRelField',\n});`,
  };

  if (collection.type === 'view') {
    const viewNote = 'A view collection is read only: its records come from its SQL query.';
    return [
      { ...list, notes: [viewNote] },
      { ...view, notes: [viewNote] },
    ];
  }

  const create: DocPage = {
    ...common,
    id: 'create',
    tab: 'Create',
    title: `Create (${name})`,
    intro: [`Creates a new ${name} record.`],
    method: 'POST',
    path,
    access: ruleInWords(collection.createRule),
    rule: collection.createRule,
    queryParams: readQueryParams(collection),
    bodyParams: bodyParams(collection, true, ctx.lookup),
    fields,
    responses: [
      { status: 200, body: json(record) },
      error(400, 'Failed to create record.', { [collection.schema[0]?.name ?? 'id']: { code: 'validation_required', message: 'Missing required value.' } }),
      error(403, ONLY_ADMINS),
    ],
    sdk: head + `const data = ${json(exampleBody(collection, true))};\n\nconst record = await pb.collection('${name}').create(data);`,
    notes: [
      ...writeNote,
      ...(collection.type === 'auth' ? ['Creating an auth record does not sign it in; call authWithPassword afterwards.'] : []),
    ],
  };

  const update: DocPage = {
    ...common,
    id: 'update',
    tab: 'Update',
    title: `Update (${name})`,
    intro: [`Changes an existing ${name} record; only the sent fields change.`],
    method: 'PATCH',
    path: `${path}/:id`,
    access: ruleInWords(collection.updateRule),
    rule: collection.updateRule,
    pathParams: [idParam],
    queryParams: readQueryParams(collection),
    bodyParams: bodyParams(collection, false, ctx.lookup),
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
      'Number fields take "field+": 1 / "field-": 1 to add or subtract; multiple select, file and relation fields take "field+" / "field-" to append or remove values.',
    ],
  };

  const del: DocPage = {
    ...common,
    id: 'delete',
    tab: 'Delete',
    title: `Delete (${name})`,
    intro: [`Deletes one ${name} record. Relations pointing at it lose the id; those set to cascade delete go too.`],
    method: 'DELETE',
    path: `${path}/:id`,
    access: ruleInWords(collection.deleteRule),
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
    tab: 'Realtime',
    title: `Realtime (${name})`,
    intro: [
      'Subscribes to changes over server-sent events (SSE): every create, update and delete sends {action, record}.',
      `Subscribing to the whole collection ("${name}/*") uses the list rule; subscribing to one record ("${name}/RECORD_ID") uses the view rule.`,
    ],
    method: 'GET',
    path: '/api/realtime',
    access: `Whole collection: ${ruleInWords(collection.listRule)} One record: ${ruleInWords(collection.viewRule)}`,
    rule: null,
    queryParams: [
      param('filter', 'String', 'Subscription option: only records matching this filter.'),
      ...readQueryParams(collection).map((p) => ({ ...p, description: `Subscription option. ${p.description}` })),
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
      'The connection: GET /api/realtime answers with the stream; its first event, PB_CONNECT, carries the clientId. POST /api/realtime {clientId, subscriptions} sets the topics (204); an empty list unsubscribes.',
      'A connection without messages is closed after 5 minutes; the SDK reconnects and subscribes again by itself.',
    ],
  };

  return [list, view, create, update, del, realtime];
}
