// The Fields tab of the collection editor: system fields, the field rows (one options panel open
// at a time, drag or arrow keys to reorder), 'New field' with the 11 types, and the indexes.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { FieldTypeIcon } from '../../fields/FieldTypeIcon';
import { IconChevronDown, IconPlus } from '../../ui/icons';
import {
  canMoveField,
  duplicateField,
  FIELD_TYPES,
  moveField,
  moveTarget,
  newField,
  removeField,
  restoreField,
  systemFieldNames,
} from '../../lib/collections/fields';
import { indexLabel } from '../../lib/collections/indexes';
import { payloadIndexes, renameField } from '../../lib/collections/payload';
import type { CollectionModel, FieldType, SchemaField } from '../../lib/collections/types';
import { FieldRow } from './FieldRow';
import { IndexEditorPopup } from './IndexEditorPopup';
import { Tooltip } from '../../ui/Tooltip';
import { t } from '../../ui/i18n';
import { tRich } from '../../ui/rich-text';
import { typeLabel } from './field-type-label';

type Props = {
  draft: CollectionModel;
  onChange: (next: CollectionModel) => void;
  errors: Record<string, unknown>;
  disabled?: boolean;
};

function errMessage(v: unknown): string | undefined {
  if (!v || typeof v !== 'object') return typeof v === 'string' ? v : undefined;
  const m = (v as { message?: unknown }).message;
  return typeof m === 'string' ? m : undefined;
}

function NewFieldMenu({ onPick, disabled }: { onPick: (type: FieldType) => void; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      button.current?.focus();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowRight') {
      e.preventDefault();
      items[(i + 1) % items.length]?.focus();
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') {
      e.preventDefault();
      items[(i - 1 + items.length) % items.length]?.focus();
    }
  };
  return (
    <div className="new-field" ref={root}>
      <button
        ref={button}
        type="button"
        className="btn btn-secondary btn-block new-field-button"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        <IconPlus size={16} />
        <span>{t('collections.newField')}</span>
        <IconChevronDown size={14} />
      </button>
      {open && (
        <div className="dropdown new-field-dropdown" role="menu" aria-label={t('collections.fieldTypes')} onKeyDown={onKey}>
          {FIELD_TYPES.map(({ type }) => (
            <button
              key={type}
              type="button"
              role="menuitem"
              className="dropdown-item"
              onClick={() => {
                setOpen(false);
                onPick(type);
              }}
            >
              <FieldTypeIcon type={type} size={16} />
              <span>{typeLabel(type)}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

export function FieldsTab({ draft, onChange, errors, disabled }: Props) {
  const [openKey, setOpenKey] = useState<string | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [indexEditor, setIndexEditor] = useState<{ open: boolean; index: number | null }>({ open: false, index: null });
  const fields = draft.schema;
  const positions = payloadIndexes(fields);
  const schemaErrors = (errors.schema && typeof errors.schema === 'object' ? errors.schema : {}) as Record<string, unknown>;
  const schemaLeaf = errMessage(errors.schema);
  const indexErrors = (errors.indexes && typeof errors.indexes === 'object' ? errors.indexes : {}) as Record<string, unknown>;
  const indexesLeaf = errMessage(errors.indexes);

  const setFields = (schema: SchemaField[]) => onChange({ ...draft, schema });

  const add = (type: FieldType) => {
    const f = newField(type, fields, draft.type);
    setFields([...fields, f]);
    setOpenKey(f._key ?? null);
  };

  const move = (from: number, to: number) => {
    setFields(moveField(fields, from, to));
  };

  return (
    <div className="fields-tab">
      <p className="txt-hint txt-sm system-fields">
        {tRich('collections.systemFields', { names: <span className="txt-mono">{systemFieldNames(draft.type).join(', ')}</span> })}
      </p>

      <ul className="field-list" aria-label={t('collections.fields')}>
        {fields.map((f, i) => {
          const key = f._key ?? f.id ?? String(i);
          const pi = positions[i];
          const up = moveTarget(fields, i, -1);
          const down = moveTarget(fields, i, 1);
          return (
            <FieldRow
              key={key}
              field={f}
              index={i}
              payloadIndex={pi}
              errors={pi === null ? undefined : (schemaErrors[String(pi)] as Record<string, unknown> | undefined)}
              open={openKey === key}
              canMoveUp={up !== null}
              canMoveDown={down !== null}
              draggable={canMoveField(f)}
              disabled={disabled}
              onToggle={() => setOpenKey((k) => (k === key ? null : key))}
              onChange={(next) => setFields(fields.map((x, j) => (j === i ? next : x)))}
              onRename={(name) => onChange(renameField(draft, i, name))}
              onRemove={() => {
                setOpenKey(null);
                setFields(removeField(fields, i));
              }}
              onRestore={() => setFields(restoreField(fields, i))}
              onDuplicate={() => {
                const next = duplicateField(fields, i, draft.type);
                setFields(next);
                setOpenKey(next[i + 1]?._key ?? null);
              }}
              onMove={(step) => {
                const to = moveTarget(fields, i, step);
                if (to !== null) move(i, to);
                // keep focus on the moved row's handle
                requestAnimationFrame(() => {
                  const rows = document.querySelectorAll<HTMLElement>('.field-list > .field-row .field-handle');
                  rows[to ?? i]?.focus();
                });
              }}
              onDragStart={setDragFrom}
              onDropAt={(to) => {
                if (dragFrom !== null && canMoveField(fields[to])) move(dragFrom, to);
                setDragFrom(null);
              }}
            />
          );
        })}
      </ul>
      {fields.length === 0 && <p className="txt-hint fields-empty">{t('collections.noFields')}</p>}
      {schemaLeaf && <div className="sf-error">{schemaLeaf}</div>}

      <NewFieldMenu onPick={add} disabled={disabled} />

      <section className="indexes-section" aria-labelledby="indexes-title">
        <h3 id="indexes-title" className="section-title">
          {t('collections.indexes', { count: draft.indexes.length })}
        </h3>
        <div className="index-list">
          {draft.indexes.map((statement, i) => {
            const err = errMessage(indexErrors[String(i)]);
            return (
              <Tooltip key={i + statement} text={err ?? statement} danger={!!err}>
                <button
                  type="button"
                  className={`index-label${err ? ' index-label--error' : ''}`}
                  aria-label={t('collections.editIndex', { name: indexLabel(statement) })}
                  disabled={disabled}
                  onClick={() => setIndexEditor({ open: true, index: i })}
                >
                  {indexLabel(statement)}
                </button>
              </Tooltip>
            );
          })}
          <button type="button" className="btn btn-sm btn-transparent" disabled={disabled} onClick={() => setIndexEditor({ open: true, index: null })}>
            <IconPlus size={14} />
            <span>{t('collections.newIndex')}</span>
          </button>
        </div>
        {indexesLeaf && <div className="sf-error">{indexesLeaf}</div>}
      </section>

      <IndexEditorPopup
        open={indexEditor.open}
        statement={indexEditor.index === null ? null : draft.indexes[indexEditor.index] ?? null}
        tableName={draft.name}
        onClose={() => setIndexEditor((s) => ({ ...s, open: false }))}
        onSet={(statement) => {
          const indexes = [...draft.indexes];
          if (indexEditor.index === null) indexes.push(statement);
          else indexes[indexEditor.index] = statement;
          onChange({ ...draft, indexes });
          setIndexEditor((s) => ({ ...s, open: false }));
        }}
        onDelete={() => {
          if (indexEditor.index === null) return;
          onChange({ ...draft, indexes: draft.indexes.filter((_, j) => j !== indexEditor.index) });
          setIndexEditor((s) => ({ ...s, open: false }));
        }}
      />
    </div>
  );
}
