/**
 * The screen runner: draws any screen definition (screens/*.json) generically. A page gets the
 * host's page frame (title, breadcrumb, layout), a card with one form per section and a footer
 * with the screen's actions; a panel (kind "panel") is an overlay with the same parts. The logic lives in useScreen; what a page adds
 * by hand is only what no schema can say (e.g. opening another screen, remembering a recipient).
 */
import { useMemo, useState, type ReactNode } from 'react';
import { OverlayPanel } from '../ui/OverlayPanel';
import type { StatusLabelProps } from '../ui/StatusLabel';
import { engineHost } from './host';
import { SchemaForm } from './SchemaForm';
import { getScreen } from './schemas';
import type { FormContext } from '../widgets/form-context';
import { checkName, type ScreenAction, type ScreenCheck, type ScreenDefinition } from './screen';
import { useScreen, type CheckStatus, type ScreenState, type UseScreenOptions } from './use-screen';
import './screen-view.css';

export interface ScreenViewProps extends UseScreenOptions {
  /** screens/<name>.json, or a template screen instantiated for one form (instantiateScreen). */
  name: string | ScreenDefinition;
  /** Panels: whether it is open, and how it closes. */
  open?: boolean;
  onClose?: () => void;
  /**
   * A page's own handling of actions that open another screen; without it the runner opens the
   * screen itself as a panel (with the action's `pass` and `result` field maps).
   */
  onAction?: (action: ScreenAction, state: ScreenState) => void;
  /** Extra content after the forms (e.g. a popup the page opens). */
  children?: ReactNode;
  /** What the page has to say where the forms place a `note` decoration of that name. */
  notes?: FormContext['notes'];
}

const CANCEL_IDS = new Set(['cancel', 'close', 'reset']);

/** What a screen's check has to show: nothing while idle, off or with unsaved changes. */
function checkStatus(c: ScreenCheck, check: CheckStatus | undefined, dirty: boolean): StatusLabelProps | null {
  if (!check || check.state === 'idle' || dirty) return null;
  if (check.state === 'checking') return { status: 'pending', text: c.checking ?? c.ok };
  return check.state === 'ok' ? { status: 'success', text: c.ok } : { status: 'error', text: c.failed, tooltip: check.message };
}

function Sections({ state, notes }: { state: ScreenState; notes?: FormContext['notes'] }) {
  // the check's status and the page's notes reach the forms' `statusLabel` and `note` widgets through the form context
  const { screen, check, dirty } = state;
  const formContext = useMemo<FormContext>(
    () => ({ ...(screen.check ? { checks: { [checkName(screen)]: checkStatus(screen.check, check, dirty) } } : {}), ...(notes ? { notes } : {}) }),
    [screen, check, dirty, notes],
  );
  if (state.loading) {
    return (
      <div className="screen-loading" aria-busy="true">
        <span className="skeleton-line" />
        <span className="skeleton-line" />
        <span className="skeleton-line" />
      </div>
    );
  }
  return (
    <>
      {state.sections.map((s) => (
        <section className="screen-section" key={s.id}>
          {s.section.title && <p className="screen-section-note">{s.section.title}</p>}
          <SchemaForm
            key={`${s.id}-${state.formKey}`}
            id={s.id}
            schema={s.form.schema}
            uiSchema={s.form.uiSchema}
            formData={state.sectionData(s)}
            pristine={getPristine(state, s.bind)}
            errorsPath={s.bind}
            disabled={state.busy}
            onChange={(value) => state.change(s, value)}
            onSubmit={() => void state.submit()}
            formContext={formContext}
          />
        </section>
      ))}
    </>
  );
}

function getPristine(state: ScreenState, bind: string): unknown {
  let node: unknown = state.pristine;
  for (const key of bind.split('.').filter(Boolean)) node = (node as Record<string, unknown> | undefined)?.[key];
  return node ?? {};
}

function Actions({ state, onCancel, onAction }: { state: ScreenState; onCancel: () => void; onAction?: ScreenViewProps['onAction'] }) {
  const needsChanges = Boolean(state.screen.load);
  return (
    <>
      {(state.screen.actions ?? []).filter(state.visible).map((a) => {
        if (a === state.main) {
          return (
            <button
              key={a.id}
              type="button"
              className={`btn btn-primary${state.busy ? ' btn-loading' : ''}`}
              aria-busy={state.busy || undefined}
              disabled={state.busy || state.loading || !state.valid || (needsChanges && !state.dirty)}
              onClick={() => void state.submit()}
            >
              <span>{a.label}</span>
            </button>
          );
        }
        if (a.opens || a.set) {
          const run = () => (a.set ? state.change(state.sections[0], a.set) : onAction?.(a, state));
          return (
            <button key={a.id} type="button" className="btn btn-secondary" disabled={state.loading} onClick={run}>
              <span>{a.label}</span>
            </button>
          );
        }
        if (CANCEL_IDS.has(a.id)) {
          // Pressing the button must not blur the field first: the blur reveals that field's error,
          // the message pushes the footer down between mousedown and mouseup, and the click is lost
          // (Cancel "only worked while the form was valid"). Keyboard focus still reaches it.
          return (
            <button
              key={a.id}
              type="button"
              className="btn btn-transparent"
              disabled={state.busy}
              onMouseDown={(e) => e.preventDefault()}
              onClick={onCancel}
            >
              <span>{a.label}</span>
            </button>
          );
        }
        return null;
      })}
    </>
  );
}

function ScreenPage({ name, onAction, children, notes, ...options }: ScreenViewProps) {
  const state = useScreen(name, options);
  const { screen } = state;
  const { PageFrame } = engineHost();
  return (
    <PageFrame title={screen.title} breadcrumb={screen.breadcrumb ?? [screen.title]} route={screen.route}>
      <div className="screen-card" data-screen={screen.name}>
        <Sections state={state} notes={notes} />
        <footer className="screen-footer">
          <div className="flex-fill" />
          <Actions state={state} onCancel={state.reset} onAction={onAction} />
        </footer>
      </div>
      {children}
    </PageFrame>
  );
}

function ScreenPanel({ name, open = false, onClose, onAction, children, notes, ...options }: ScreenViewProps) {
  const state = useScreen(name, { ...options, active: open });
  const close = () => {
    if (!state.busy) onClose?.();
  };
  return (
    <OverlayPanel
      open={open}
      onRequestClose={close}
      beforeHide={() => !state.busy}
      escClose={!state.busy}
      overlayClose={!state.busy}
      showCloseButton={!state.busy}
      header={state.screen.title}
      size="popup"
      className={`screen-panel screen-panel-${state.screen.name}`}
      footer={<Actions state={state} onCancel={close} onAction={onAction} />}
    >
      <div className="screen-panel-body" data-screen={state.screen.name}>
        <Sections state={state} notes={notes} />
        {children}
      </div>
    </OverlayPanel>
  );
}

/** A form card without page chrome, for a hand-written page to place (kind "section"). */
function ScreenSection({ name, onAction, children, notes, ...options }: ScreenViewProps) {
  const state = useScreen(name, options);
  return (
    <div className="screen-card screen-card-inline" data-screen={state.screen.name}>
      <Sections state={state} notes={notes} />
      <footer className="screen-footer">
        <div className="flex-fill" />
        <Actions state={state} onCancel={state.reset} onAction={onAction} />
      </footer>
      {children}
    </div>
  );
}

/** A page, a panel or a section, as the screen definition says. */
export function ScreenView(props: ScreenViewProps) {
  const [opened, setOpened] = useState<{ action: ScreenAction; state: ScreenState } | null>(null);
  const kind = getKind(props.name);
  const Kind = kind === 'panel' ? ScreenPanel : kind === 'section' ? ScreenSection : ScreenPage;
  const onAction = props.onAction ?? ((action: ScreenAction, state: ScreenState) => setOpened({ action, state }));
  return (
    <Kind {...props} onAction={onAction}>
      {props.children}
      {opened && <OpenedScreen {...opened} onClose={() => setOpened(null)} />}
    </Kind>
  );
}

/** A screen an action opened: starts from the opener's fields (`pass`), gives its answer back (`result`). */
function OpenedScreen({ action, state, onClose }: { action: ScreenAction; state: ScreenState; onClose: () => void }) {
  const section = state.sections[0];
  const current = (state.sectionData(section) ?? {}) as Record<string, unknown>;
  const initial = Object.fromEntries(Object.entries(action.pass ?? {}).map(([to, from]) => [to, current[from]]));
  const onDone = (response: unknown) => {
    const answer = (response ?? {}) as Record<string, unknown>;
    const patch = Object.fromEntries(Object.entries(action.result ?? {}).filter(([key]) => answer[key] !== undefined).map(([key, field]) => [field, answer[key]]));
    if (Object.keys(patch).length) state.change(section, { ...(state.sectionData(section) as object), ...patch });
    onClose();
  };
  return <ScreenView name={action.opens as string} open initial={initial} onClose={onClose} onDone={onDone} />;
}

function getKind(name: string | ScreenDefinition) {
  return (typeof name === 'string' ? getScreen(name) : name).kind ?? 'page';
}
