// One schema field in the Fields tab: drag handle (arrow keys move it too), type icon, name
// (slugged), markers, and the options panel drawn by the engine from
// schemas/fields/{type}.schema.json + .ui.json, with Duplicate / Remove / Restore and moves.
import { useEffect, useMemo, useRef, type DragEvent, type KeyboardEvent } from 'react';
import { SchemaForm, getForm } from '../../engine';
import { typeLabel } from './field-type-label';
import { slugify } from '../../lib/collections/slug';
import type { SchemaField } from '../../lib/collections/types';
import { docToField, fieldToDoc, flattenListErrors, withExclusions } from './form-docs';
import { FieldTypeIcon } from '../../fields/FieldTypeIcon';
import { IconAlert, IconGrip, IconSettings } from '../../ui/icons';
import { t } from '../../ui/i18n';

export type FieldRowProps = {
  field: SchemaField;
  index: number;
  /** Position in the request's schema (null when marked for deletion), for server errors. */
  payloadIndex: number | null;
  /** This field's server errors (schema.{payloadIndex}). */
  errors: Record<string, unknown> | undefined;
  open: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  draggable: boolean;
  disabled?: boolean;
  onToggle: () => void;
  onChange: (next: SchemaField) => void;
  onRename: (name: string) => void;
  onRemove: () => void;
  onRestore: () => void;
  onDuplicate: () => void;
  onMove: (step: -1 | 1) => void;
  onDragStart: (index: number) => void;
  onDropAt: (index: number) => void;
};

const EMPTY = {};

function message(err: unknown): string | undefined {
  if (!err) return undefined;
  if (typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string') return (err as { message: string }).message;
  return typeof err === 'string' ? err : t('form.invalidValue');
}

export function FieldRow(props: FieldRowProps) {
  const { field, index, errors, open, disabled } = props;
  const nameRef = useRef<HTMLInputElement>(null);
  const form = useMemo(() => getForm(`fields/${field.type}`), [field.type]);
  const doc = useMemo(() => fieldToDoc(field), [field]);
  const uiSchema = useMemo(() => withExclusions(form.uiSchema, doc), [form, doc]);
  const optionErrors = useMemo(() => flattenListErrors(errors?.options) ?? EMPTY, [errors]);
  const locked = field.system && !!field.id;
  const nameError = message(errors?.name) ?? message(errors?.id) ?? message(errors?.type);
  const optionsLeafError = errors?.options && typeof errors.options === 'object' && 'message' in (errors.options as object) ? message(errors.options) : undefined;
  const hasErrors = !!errors && Object.keys(errors).length > 0;
  const formId = `field-${field._key ?? index}`;

  useEffect(() => {
    if (field.onMountSelect && nameRef.current) {
      nameRef.current.focus();
      nameRef.current.select();
    }
    // only when the row first mounts
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onHandleKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowUp' && props.canMoveUp) {
      e.preventDefault();
      props.onMove(-1);
    } else if (e.key === 'ArrowDown' && props.canMoveDown) {
      e.preventDefault();
      props.onMove(1);
    }
  };

  const onDragStart = (e: DragEvent<HTMLButtonElement>) => {
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', String(index));
    const row = (e.currentTarget as HTMLElement).closest('.field-row');
    if (row) e.dataTransfer.setDragImage(row, 16, 16);
    props.onDragStart(index);
  };

  const classes = ['field-row', open ? 'field-row--open' : '', field.toDelete ? 'field-row--deleted' : '', hasErrors ? 'field-row--error' : '']
    .filter(Boolean)
    .join(' ');

  return (
    <li
      className={classes}
      data-field-name={field.name}
      onDragOver={(e) => {
        if (!props.draggable && !field.toDelete) return;
        e.preventDefault();
      }}
      onDrop={(e) => {
        e.preventDefault();
        props.onDropAt(index);
      }}
    >
      <div className="field-row-header">
        <button
          type="button"
          className="field-handle"
          draggable={props.draggable && !disabled}
          disabled={!props.draggable || disabled}
          aria-label={t('collections.reorderField', { name: field.name })}
          title={props.draggable ? t('collections.dragToReorder') : undefined}
          onDragStart={onDragStart}
          onKeyDown={onHandleKey}
        >
          <IconGrip size={14} />
        </button>
        <span className="field-type-icon" title={typeLabel(field.type)}>
          <FieldTypeIcon type={field.type} size={16} />
        </span>
        <div className="field-name">
          <input
            ref={nameRef}
            type="text"
            className={`field-name-input${nameError ? ' invalid' : ''}`}
            aria-label={t('collections.fieldName', { type: typeLabel(field.type) })}
            aria-invalid={!!nameError || undefined}
            value={field.name}
            placeholder={t('collections.fieldNamePlaceholder')}
            disabled={locked || field.toDelete || disabled}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => props.onRename(slugify(e.target.value))}
          />
          {nameError && <div className="sf-error field-name-error">{nameError}</div>}
        </div>
        <div className="field-markers">
          {locked && <span className="badge">{t('collections.markerSystem')}</span>}
          {field.required && <span className="badge badge-plain">{t('collections.markerNonempty')}</span>}
          {field.presentable && <span className="badge badge-plain">{t('collections.markerPresentable')}</span>}
          {field.nullable === true && <span className="badge badge-plain">{t('collections.markerNullable')}</span>}
          {hasErrors && !open && (
            <span className="txt-danger field-error-icon">
              <IconAlert title={t('form.hasErrors')} />
            </span>
          )}
        </div>
        {field.toDelete ? (
          <button type="button" className="btn btn-sm btn-secondary" disabled={disabled} onClick={props.onRestore}>
            {t('collections.restore')}
          </button>
        ) : (
          <button
            type="button"
            className={`btn btn-sm btn-transparent btn-circle field-options-toggle${open ? ' active' : ''}`}
            aria-expanded={open}
            aria-controls={`${formId}-panel`}
            aria-label={field.name ? t(open ? 'collections.closeOptionsOf' : 'collections.openOptionsOf', { name: field.name }) : t(open ? 'collections.closeOptions' : 'collections.openOptions')}
            title={t('collections.fieldOptions')}
            onClick={props.onToggle}
          >
            <IconSettings size={16} />
          </button>
        )}
      </div>
      {open && !field.toDelete && (
        <div className="field-options" id={`${formId}-panel`}>
          {optionsLeafError && <div className="alert alert-danger field-options-error">{optionsLeafError}</div>}
          <SchemaForm
            key={field.type}
            id={formId}
            schema={form.schema}
            uiSchema={uiSchema}
            formData={doc}
            serverErrors={optionErrors}
            disabled={disabled || locked}
            onChange={(next) => props.onChange(docToField(field, next as Record<string, unknown>))}
          />
          <div className="field-options-footer">
            <button type="button" className="btn btn-sm btn-transparent" disabled={!props.canMoveUp || disabled} onClick={() => props.onMove(-1)}>
              {t('form.moveUp')}
            </button>
            <button type="button" className="btn btn-sm btn-transparent" disabled={!props.canMoveDown || disabled} onClick={() => props.onMove(1)}>
              {t('form.moveDown')}
            </button>
            <div className="flex-fill" />
            <button type="button" className="btn btn-sm btn-transparent" disabled={disabled || locked} onClick={props.onDuplicate}>
              {t('collections.duplicate')}
            </button>
            <button type="button" className="btn btn-sm btn-transparent txt-danger" disabled={disabled || locked} onClick={props.onRemove}>
              {t('form.remove')}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
