// @vitest-environment jsdom
// The rule widget's 'Set Admins only' / unlock: the replaced text is restored on unlock, and with
// the collection editor's ruleMemory (form context) also after the widget was unmounted, as on a
// tab switch.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import type { FormContext } from '../../src/widgets/form-context';

vi.mock('../../src/widgets/CodeEditorLoader', () => ({
  LazyCodeEditor: (p: { id: string; value: string }) => <textarea id={p.id} value={p.value} readOnly />,
  preloadCodeEditor: () => {},
}));

const { RuleWidget } = await import('../../src/widgets/RuleWidget');

afterEach(cleanup);

function baseProps(value: string | null, onChange: (v: unknown) => void, formContext?: FormContext): WidgetProps {
  return {
    id: 'rules_listRule',
    name: 'listRule',
    label: 'List/Search rule',
    value,
    options: {},
    schema: {},
    required: false,
    disabled: false,
    readonly: false,
    rawErrors: [],
    registry: { formContext },
    onChange,
    onBlur: () => {},
    onFocus: () => {},
  } as unknown as WidgetProps;
}

function draw(value: string | null, onChange: (v: unknown) => void, formContext?: FormContext) {
  return render(<RuleWidget {...baseProps(value, onChange, formContext)} />);
}

function memory(): FormContext {
  const texts: Record<string, string> = {};
  return { ruleMemory: { get: (k) => texts[k], set: (k, t) => void (texts[k] = t) } };
}

describe('RuleWidget', () => {
  it('restores the text it locked on unlock while mounted; a fresh widget without ruleMemory starts empty', () => {
    const onChange = vi.fn();
    const view = draw("@request.auth.id != ''", onChange);
    fireEvent.click(screen.getByRole('button', { name: 'Set Admins only' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    view.rerender(<RuleWidget {...baseProps(null, onChange)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Unlock and set custom rule' }));
    expect(onChange).toHaveBeenLastCalledWith("@request.auth.id != ''");
    view.unmount();

    const fresh = vi.fn();
    draw(null, fresh);
    fireEvent.click(screen.getByRole('button', { name: 'Unlock and set custom rule' }));
    expect(fresh).toHaveBeenLastCalledWith('');
  });

  it("keeps the locked text in the form context's ruleMemory, so a remounted widget (tab switch) restores it", () => {
    const ctx = memory();
    const onChange = vi.fn();
    const first = draw("@request.auth.id != ''", onChange, ctx);
    fireEvent.click(screen.getByRole('button', { name: 'Set Admins only' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    first.unmount();

    draw(null, onChange, ctx);
    fireEvent.click(screen.getByRole('button', { name: 'Unlock and set custom rule' }));
    expect(onChange).toHaveBeenLastCalledWith("@request.auth.id != ''");
  });
});
