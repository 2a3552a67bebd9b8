/**
 * The collection editor panel: New /
 * Edit collection, the type picker (new) or the Duplicate / Delete menu (existing), the slugged
 * name, tabs Fields (Query for views) / API Rules / Options (auth) with their markers, Cancel and
 * Create / Save changes, unsaved-changes confirmations and the confirm-changes dialog.
 * The name, rules, auth options, view query, field options and index forms are drawn by the
 * engine from schemas/collections/* and schemas/fields/*.
 */
import { useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { confirm } from '../../shell/confirm';
import { OverlayPanel } from '../../ui/OverlayPanel';
import { SchemaForm, getForm, preloadRjsfRenderer } from '../../engine';
import { changeType, duplicateCollection, editableCollection, hasChanges, newCollection, renameCollection } from '../../lib/collections/payload';
import { slugify } from '../../lib/collections/slug';
import { RULE_NAMES, type CollectionModel, type CollectionType } from '../../lib/collections/types';
import { setEditorDraft } from '../../state/collections';
import { clearFieldErrors, fieldErrors } from '../../engine/field-errors';
import { preloadCodeEditor } from '../../widgets/CodeEditorLoader';
import { ConfirmChangesPopup } from './ConfirmChangesPopup';
import { FieldsTab } from './FieldsTab';
import { authOptionsToDoc, docToAuthOptions, withExclusions } from './form-docs';
import { IconAlert, IconLock } from '../../ui/icons';
import { tabMarkers } from './tab-markers';
import { useCollectionSave } from './use-collection-save';
import { useEditorTabs } from './use-editor-tabs';
import { useRuleMemory } from './use-rule-memory';
import { MoreMenu } from '../../shell/MoreMenu';
import { t } from '../../ui/i18n';
import { tRich } from '../../ui/rich-text';
import { useAccess } from '../../state/permissions';
import { useHistoryOption } from './use-history-option';

export type CollectionEditorPanelProps = {
  open: boolean;
  /** The collection to edit; null for a new one. */
  collection: CollectionModel | null;
  onClose: () => void;
  onSaved: (saved: CollectionModel, created: boolean) => void;
};

const TYPES: readonly CollectionType[] = ['base', 'auth', 'view'];
// names in code, no words
const ROW_NUMBER_ID = '(ROW_NUMBER() OVER()) as id';
const ALIAS_SAMPLE = 'MAX(balance) as maxBalance';
const ID_COLUMN = 'id';

const VIEW_RULES_UI = {
  createRule: { 'ui:widget': 'hidden' },
  updateRule: { 'ui:widget': 'hidden' },
  deleteRule: { 'ui:widget': 'hidden' },
};

function message(v: unknown): string | undefined {
  if (!v || typeof v !== 'object') return typeof v === 'string' ? v : undefined;
  const m = (v as { message?: unknown }).message;
  return typeof m === 'string' ? m : undefined;
}

export default function CollectionEditorPanel({ open, collection, onClose, onSaved }: CollectionEditorPanelProps) {
  // read on each render: the words follow the language
  const nameForm = getForm('collections/collection-name');
  const rulesForm = getForm('collections/rules');
  const authForm = getForm('collections/auth-options');
  const queryForm = getForm('collections/view-query');
  const historyForm = getForm('audit/collection-history');
  const [original, setOriginal] = useState<CollectionModel | null>(() => (collection ? editableCollection(collection) : null));
  const [draft, setDraft] = useState<CollectionModel>(() => (collection ? editableCollection(collection) : newCollection('base')));
  const [formsKey, setFormsKey] = useState(0);
  const widgetContext = useRuleMemory();
  const errorsSnap = useSnapshot(fieldErrors);
  const errors = errorsSnap.errors as Record<string, unknown>;

  const isNew = !original || !original.id;
  const isView = draft.type === 'view';
  const isAuth = draft.type === 'auth';
  const changed = hasChanges(original, draft);
  // a scoped admin's role: the schema seen but not editable leaves every form read-only
  const access = useAccess();
  const mayEdit = access.schema(original, 'edit');
  const history = useHistoryOption(original?.id || null, isView, access.schema(original, 'view'));
  const historyChanged = history.stored !== null && history.on !== history.stored;
  const { tab, setTab, tabs, onTabKey } = useEditorTabs(isView, isAuth, history.shown);
  const { busy, canSave, confirmChanges, cancelConfirm, doSave, save, remove } = useCollectionSave({
    original,
    draft,
    isNew,
    changed,
    onSaved,
    onClose,
    extraChanged: historyChanged,
    saveExtra: (saved) => history.save(saved.id),
  });
  const locked = busy || !mayEdit;

  useEffect(() => {
    clearFieldErrors();
    preloadRjsfRenderer();
    preloadCodeEditor();
    return () => {
      setEditorDraft(null);
      clearFieldErrors();
    };
  }, []);

  // The draft is shared with the widgets that need context (index columns, rule autocomplete).
  useEffect(() => {
    setEditorDraft(open ? draft : null);
  }, [draft, open]);

  const { errors: tabErrors, rulesSet } = tabMarkers(draft, errors);

  // ---- actions ----

  const duplicate = () => {
    const run = () => {
      const copy = duplicateCollection(original ?? draft);
      clearFieldErrors();
      setOriginal(null);
      setDraft(copy);
      setTab('fields');
      setFormsKey((k) => k + 1);
    };
    if (changed || historyChanged) confirm(t('collections.discardChanges'), run);
    else run();
  };

  const setType = (type: CollectionType) => {
    setDraft((d) => changeType(d, type));
    setFormsKey((k) => k + 1);
  };

  const beforeHide = () =>
    busy ? false : !(changed || historyChanged) || new Promise<boolean>((resolve) => confirm(t('collections.closeChanges'), () => resolve(true), () => resolve(false)));

  const requestClose = async () => {
    if (await beforeHide()) onClose();
  };

  const nameUi = useMemo(
    () => ({
      name: {
        'ui:placeholder': t(draft.type === 'auth' ? 'collections.namePlaceholderAuth' : 'collections.namePlaceholder'),
        'ui:autocomplete': 'off',
        ...(isNew ? { 'ui:autofocus': true } : {}),
      },
    }),
    [draft.type, isNew],
  );
  const rulesDoc = useMemo(
    () => Object.fromEntries(RULE_NAMES.map((r) => [r, draft[r]])) as Record<string, string | null>,
    [draft],
  );
  const authDoc = useMemo(() => authOptionsToDoc(draft.options), [draft.options]);
  const authUi = useMemo(() => withExclusions(authForm.uiSchema, authDoc), [authForm.uiSchema, authDoc]);

  const header = (
    <div className="collection-editor-header">
      <div className="collection-editor-title">
        <h2 className="overlay-panel-title">{t(isNew ? 'collections.new' : 'collections.edit')}</h2>
        {isNew ? (
          <label className="type-picker">
            <span className="visually-hidden">{t('collections.type')}</span>
            <select aria-label={t('collections.type')} value={draft.type} onChange={(e) => setType(e.target.value as CollectionType)} disabled={busy}>
              {TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`collections.typeOption.${type}`)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          mayEdit && (
            <MoreMenu className="collection-editor-menu" dropdownClassName="collection-editor-dropdown" focusFirst>
              {(close) => (
                <>
                  {access.schema(null, 'edit') && (
                    <button type="button" role="menuitem" className="dropdown-item" onClick={() => (close(), duplicate())}>
                      {t('collections.duplicate')}
                    </button>
                  )}
                  {!original?.system && (
                    <button type="button" role="menuitem" className="dropdown-item txt-danger" onClick={() => (close(), remove())}>
                      {t('collections.delete')}
                    </button>
                  )}
                </>
              )}
            </MoreMenu>
          )
        )}
      </div>
      <div className="collection-name-row">
        <SchemaForm
          key={'name' + formsKey}
          id="collection-name-form"
          schema={nameForm.schema}
          uiSchema={nameUi}
          formData={{ name: draft.name }}
          disabled={locked || !!original?.system}
          onChange={(d) => setDraft((cur) => renameCollection(cur, slugify(String((d as { name?: string }).name ?? ''))))}
          onSubmit={save}
        />
        {original?.system && (
          <span className="badge system-badge" title={t('collections.systemHint')}>
            <IconLock size={12} /> {t('collections.system')}
          </span>
        )}
      </div>
      <div className="collection-tabs" role="tablist" aria-label={t('collections.sections')} onKeyDown={onTabKey}>
        {tabs.map((item) => (
          <button
            key={item.key}
            id={`collection-tab-${item.key}`}
            type="button"
            role="tab"
            aria-selected={tab === item.key}
            aria-controls={`collection-tabpanel-${item.key}`}
            tabIndex={tab === item.key ? 0 : -1}
            className={`collection-tab${tab === item.key ? ' active' : ''}`}
            onClick={() => setTab(item.key)}
          >
            <span>{item.label}</span>
            {tabErrors[item.key] && (
              <span className="tab-marker txt-danger">
                <IconAlert title={t('form.hasErrors')} />
              </span>
            )}
            {item.key === 'rules' && rulesSet && (
              <span className="tab-marker txt-warning">
                <IconAlert title={t('collections.rulesSet')} />
              </span>
            )}
          </button>
        ))}
      </div>
    </div>
  );

  const footer = (
    <>
      <button type="button" className="btn btn-transparent" onClick={() => void requestClose()} disabled={busy}>
        {mayEdit ? t('collections.cancel') : t('common.close')}
      </button>
      {mayEdit && (
        <button type="button" className={`btn btn-primary${busy ? ' btn-loading' : ''}`} disabled={!canSave} onClick={save}>
          <span>{t(isNew ? 'collections.create' : 'collections.save')}</span>
        </button>
      )}
    </>
  );

  const schemaErrorList =
    isView && errors.schema && typeof errors.schema === 'object' && !message(errors.schema)
      ? Object.entries(errors.schema as Record<string, unknown>).flatMap(([i, e]) => {
          const name = draft.schema[Number(i)]?.name ?? i;
          const inner = e && typeof e === 'object' ? Object.values(e as Record<string, unknown>).map(message).filter(Boolean) : [message(e)];
          return inner.map((m) => `${name}: ${m}`);
        })
      : [];

  return (
    <>
      <OverlayPanel
        open={open}
        onRequestClose={onClose}
        beforeHide={beforeHide}
        header={header}
        ariaLabel={t(isNew ? 'collections.new' : 'collections.edit')}
        footer={footer}
        size="lg"
        className="collection-editor-panel"
      >
        {!mayEdit && (
          <p className="alert alert-info collection-editor-read-only" role="note">
            {t('roles.readOnlyCollection')}
          </p>
        )}
        <div role="tabpanel" id={`collection-tabpanel-${tab}`} aria-labelledby={`collection-tab-${tab}`} className="collection-tabpanel">
          {tab === 'fields' && !isView && (
            <FieldsTab draft={draft} onChange={setDraft} errors={errors} disabled={locked} />
          )}
          {tab === 'fields' && isView && (
            <div className="query-tab">
              <SchemaForm
                key={'query' + formsKey}
                id="collection-query-form"
                schema={queryForm.schema}
                uiSchema={queryForm.uiSchema}
                formData={{ query: typeof draft.options.query === 'string' ? draft.options.query : '' }}
                errorsPath="options"
                disabled={locked}
                onChange={(d) => setDraft((cur) => ({ ...cur, options: { ...cur.options, query: (d as { query?: string }).query ?? '' } }))}
              />
              {schemaErrorList.length > 0 && (
                <div className="sf-error query-errors">
                  {schemaErrorList.map((m) => (
                    <div key={m}>{m}</div>
                  ))}
                </div>
              )}
              {message(errors.schema) && <div className="sf-error">{message(errors.schema)}</div>}
              <ul className="txt-hint txt-sm query-hints">
                <li>{t('collections.queryWildcard')}</li>
                <li>{tRich('collections.queryId', { id: <code>{ID_COLUMN}</code>, rowNumber: <code>{ROW_NUMBER_ID}</code> })}</li>
                <li>{tRich('collections.queryAlias', { sample: <code>{ALIAS_SAMPLE}</code> })}</li>
              </ul>
              {draft.schema.length > 0 && (
                <div className="view-fields">
                  <h3 className="section-title">{t('collections.fields')}</h3>
                  <ul className="view-field-list" aria-label={t('collections.viewFields')}>
                    {draft.schema.map((f) => (
                      <li key={f.id || f.name} className="badge badge-plain">
                        {f.name} <span className="txt-hint">({f.type})</span>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
          )}
          {tab === 'rules' && (
            <div className="rules-tab">
              <p className="txt-hint txt-sm">{t('collections.rulesHint')}</p>
              <SchemaForm
                key={'rules' + formsKey + draft.type}
                id="collection-rules-form"
                schema={rulesForm.schema}
                uiSchema={isView ? { ...rulesForm.uiSchema, ...VIEW_RULES_UI } : rulesForm.uiSchema}
                formData={rulesDoc}
                formContext={widgetContext}
                disabled={locked}
                onChange={(d) => setDraft((cur) => ({ ...cur, ...(d as Record<string, string | null>) }))}
              />
            </div>
          )}
          {tab === 'options' && history.shown && (
            <div className="options-tab history-option">
              <SchemaForm
                key={'history' + formsKey + String(history.stored)}
                id="collection-history-form"
                schema={historyForm.schema}
                uiSchema={historyForm.uiSchema}
                formData={{ history: history.on }}
                disabled={locked || history.stored === null}
                onChange={(d) => history.set(Boolean((d as { history?: boolean }).history))}
              />
              {!history.trailOn && <p className="txt-hint txt-sm">{t('audit.historyTrailOff')}</p>}
            </div>
          )}
          {tab === 'options' && isAuth && (
            <div className="options-tab">
              <SchemaForm
                key={'auth' + formsKey}
                id="collection-auth-options-form"
                schema={authForm.schema}
                uiSchema={authUi}
                formData={authDoc}
                formContext={widgetContext}
                errorsPath="options"
                disabled={locked}
                onChange={(d) => setDraft((cur) => ({ ...cur, options: docToAuthOptions(cur.options, d as Record<string, unknown>) }))}
              />
              <p className="txt-hint txt-sm options-link">
                {tRich('collections.oauth2Hint', { link: <a href="#/settings/auth-providers">{t('collections.oauth2Link')}</a> })}
              </p>
            </div>
          )}
        </div>
      </OverlayPanel>
      <ConfirmChangesPopup changes={confirmChanges} busy={busy} onCancel={cancelConfirm} onConfirm={() => void doSave()} />
    </>
  );
}
