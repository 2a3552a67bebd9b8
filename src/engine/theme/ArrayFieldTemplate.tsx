import type { ArrayFieldItemTemplateProps, ArrayFieldTemplateProps, IconButtonProps } from '@rjsf/utils';
import { buttonId, getUiOptions } from '@rjsf/utils';
import { t } from '../../ui/i18n';

/** A titled list of items with an "Add" button; each item carries its own small toolbar. */
export function ArrayFieldTemplate(props: ArrayFieldTemplateProps) {
  const { canAdd, disabled, readonly, fieldPathId, uiSchema, items, onAddClick, title, required, registry, rawErrors } = props;
  const { AddButton } = registry.templates.ButtonTemplates;
  const options = getUiOptions(uiSchema);
  const errors = (rawErrors ?? []).filter(Boolean);
  return (
    <div className="sf-array" id={fieldPathId.$id}>
      {(options.title ?? title) && (
        <div className="sf-label">
          {String(options.title ?? title)}
          {required && <span className="sf-required" aria-hidden="true"> *</span>}
        </div>
      )}
      <div className="sf-array-items">{items}</div>
      {errors.length > 0 && <div className="sf-error">{errors[0]}</div>}
      {canAdd && (
        <AddButton
          id={buttonId(fieldPathId, 'add')}
          className="sf-array-add"
          onClick={onAddClick}
          disabled={disabled || readonly}
          uiSchema={uiSchema}
          registry={registry}
        />
      )}
    </div>
  );
}

export function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, buttonsProps, hasToolbar, registry } = props;
  const { ArrayFieldItemButtonsTemplate } = registry.templates;
  return (
    <div className="sf-array-item">
      <div className="sf-array-item-body">{children}</div>
      {hasToolbar && (
        <div className="sf-array-item-tools">
          <ArrayFieldItemButtonsTemplate {...buttonsProps} />
        </div>
      )}
    </div>
  );
}

function textButton(label: string, text: string, extra = '') {
  return function TextButton({ registry: _r, uiSchema: _u, iconType: _t, icon: _i, className, ...rest }: IconButtonProps) {
    return (
      <button type="button" className={`sf-btn-icon ${extra} ${className ?? ''}`.trim()} aria-label={t(label)} title={t(label)} {...rest}>
        {text}
      </button>
    );
  };
}

export const ButtonTemplates = {
  // Screens own their buttons and submit with `form={id}`.
  SubmitButton: () => null,
  AddButton: ({ registry: _r, uiSchema: _u, iconType: _t, icon: _i, className, ...rest }: IconButtonProps) => (
    <button type="button" className={`sf-btn-add ${className ?? ''}`} {...rest}>
      + {t('form.addItem')}
    </button>
  ),
  RemoveButton: textButton('form.remove', '×', 'sf-btn-icon--danger'),
  MoveUpButton: textButton('form.moveUp', '↑'),
  MoveDownButton: textButton('form.moveDown', '↓'),
  CopyButton: textButton('common.copy', '⧉'),
  ClearButton: textButton('form.clear', '×'),
};
