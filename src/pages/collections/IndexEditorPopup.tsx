// The index editor popup: 'Create index' / 'Update index', the form drawn by the engine
// from schemas/collections/index.* (unique, columns from the collection being edited), the
// statement it builds, and Delete (existing only), Cancel, 'Set index' (disabled without columns).
import { useEffect, useState } from 'react';
import { OverlayPanel } from '../../ui/OverlayPanel';
import { SchemaForm, getForm } from '../../engine';
import { buildIndex, parseIndex, randomIndexName, type ParsedIndex } from '../../lib/collections/indexes';
import { t } from '../../ui/i18n';

const FORM_ID = 'index-editor-form';

type Props = {
  open: boolean;
  statement: string | null;
  tableName: string;
  onClose: () => void;
  onSet: (statement: string) => void;
  onDelete: () => void;
};

type Doc = { unique?: boolean; columns?: string[] };

export function IndexEditorPopup({ open, statement, tableName, onClose, onSet, onDelete }: Props) {
  // read on each render: the words follow the language
  const form = getForm('collections/index');
  const [base, setBase] = useState<ParsedIndex | null>(null);
  const [doc, setDoc] = useState<Doc>({ unique: false, columns: [] });
  const [indexName, setIndexName] = useState('');

  useEffect(() => {
    if (!open) return;
    const parsed = statement ? parseIndex(statement) : null;
    setBase(parsed);
    setIndexName(parsed?.indexName || randomIndexName());
    setDoc({ unique: parsed?.unique ?? false, columns: parsed?.columns.map((c) => c.name) ?? [] });
  }, [open, statement]);

  const columns = doc.columns ?? [];
  const built = buildIndex({
    unique: !!doc.unique,
    optional: base?.optional ?? false,
    schemaName: base?.schemaName ?? '',
    indexName: indexName || 'idx',
    tableName: tableName || base?.tableName || 'table',
    columns: columns.map((name) => base?.columns.find((c) => c.name === name) ?? { name, collate: '', sort: '' }),
    where: base?.where ?? '',
  });

  const submit = () => {
    if (columns.length === 0) return;
    onSet(built);
  };

  return (
    <OverlayPanel
      open={open}
      size="popup"
      className="index-editor"
      header={t(statement ? 'collections.updateIndex' : 'collections.createIndex')}
      onRequestClose={onClose}
      footer={
        <>
          {statement && (
            <button type="button" className="btn btn-transparent txt-danger" onClick={onDelete}>
              {t('collections.delete')}
            </button>
          )}
          <div className="flex-fill" />
          <button type="button" className="btn btn-transparent" onClick={onClose}>
            {t('collections.cancel')}
          </button>
          <button type="submit" form={FORM_ID} className="btn btn-primary" disabled={columns.length === 0}>
            {t('collections.setIndex')}
          </button>
        </>
      }
    >
      {open && (
        <>
          <SchemaForm id={FORM_ID} schema={form.schema} uiSchema={form.uiSchema} formData={doc} serverErrors={{}} onChange={(d) => setDoc(d as Doc)} onSubmit={submit} />
          {built && <pre className="index-preview txt-mono" aria-label={t('collections.indexStatement')}>{built}</pre>}
        </>
      )}
    </OverlayPanel>
  );
}
