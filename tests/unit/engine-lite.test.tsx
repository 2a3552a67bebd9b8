// @vitest-environment jsdom
// The lite renderer (flat forms, no rjsf) must look and behave exactly like the rjsf renderer:
// same markup for the same schema + UI schema (checked side by side, before and after a submit and
// with server errors), the same messages, server errors under fields, and the same submit rules.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Suspense, useState, type ReactElement } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { SchemaForm, getForm, listForms, type FormContext, type SchemaFormProps } from '../../src/engine';
import { LiteForm } from '../../src/engine/LiteForm';
import RjsfForm from '../../src/engine/RjsfForm';
import { litePlan } from '../../src/engine/lite-support';
import { liteValidatorFor } from '../../src/engine/lite-validators';
import { validateData } from '../../src/engine/validator';
import { clearFieldErrors, setFieldErrors } from '../../src/engine/field-errors';

const AUTH_FORMS = ['admins/login', 'admins/installer', 'admins/request-password-reset', 'admins/confirm-password-reset'];
const NEW_PASSWORD = /^New password\s*\*?$/;

afterEach(() => {
  cleanup();
  clearFieldErrors();
});

/** The DOM as text with attributes sorted, so attribute order does not matter. */
function normalized(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element)) return '';
  const attrs = [...node.attributes].map((a) => `${a.name}="${a.value}"`).sort().join(' ');
  return `<${node.tagName.toLowerCase()} ${attrs}>${[...node.childNodes].map(normalized).join('')}</${node.tagName.toLowerCase()}>`;
}

/** Renders, waits for the form (rjsf loads lazily), optionally submits, and returns the markup. */
async function markup(el: ReactElement, submit = false): Promise<string> {
  // awaited act: the rjsf renderer may suspend on the lazily loaded runtime validator
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(<Suspense fallback={null}>{el}</Suspense>);
  });
  const { container, unmount } = view;
  // the first rjsf load (and transform) can take a while on a busy machine
  await waitFor(() => expect(container.querySelector('form')).not.toBeNull(), { timeout: 15_000 });
  if (submit) fireEvent.submit(container.querySelector('form')!);
  const out = normalized(container);
  unmount();
  return out;
}

/** The lite renderer for any flat schema, validated by the runtime validator (synthetic schemas have no build-time one). */
function Lite(props: SchemaFormProps) {
  const plan = litePlan(props.schema, props.uiSchema);
  if (!plan) throw new Error('not a lite schema');
  return <LiteForm {...props} plan={plan} validate={(d) => validateData(props.schema, d)} />;
}

/** A controlled host, as pages use the form. */
function Host(props: Omit<SchemaFormProps, 'formData'> & { initial?: Record<string, unknown>; onData?: (d: unknown) => void }) {
  const [data, setData] = useState<Record<string, unknown>>(props.initial ?? {});
  return (
    <>
      <SchemaForm
        {...props}
        formData={data}
        onChange={(d) => {
          setData(d);
          props.onData?.(d);
        }}
      />
      <button type="submit" form={props.id}>
        Submit
      </button>
    </>
  );
}

describe('which renderer', () => {
  it('draws the auth forms with the lite renderer and build-time validators, the admin editor with rjsf', () => {
    for (const name of AUTH_FORMS) {
      const { schema, uiSchema } = getForm(name);
      expect(litePlan(schema, uiSchema), name).not.toBeNull();
      expect(liteValidatorFor(schema), name).toBeDefined();
    }
    const editor = getForm('admins/admin-editor');
    expect(litePlan(editor.schema, editor.uiSchema)).toBeNull();
    expect(listForms()).toEqual(expect.arrayContaining(AUTH_FORMS));
  });

  it('renders a lite form synchronously (no renderer to load)', () => {
    const { schema, uiSchema } = getForm('admins/login');
    render(<Host id="login" schema={schema} uiSchema={uiSchema} />);
    expect(screen.getByLabelText(/^Email\s*\*?$/)).toHaveProperty('type', 'email');
    expect(screen.getByLabelText(/^Password\s*\*?$/)).toHaveProperty('type', 'password');
  });

  it('does not treat a schema with conditionals, arrays, $refs, defaults or unknown widgets as lite', () => {
    const base: RJSFSchema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(litePlan(base, {})).not.toBeNull();
    expect(litePlan({ ...base, if: { required: ['a'] }, then: {} }, {})).toBeNull();
    expect(litePlan({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, {})).toBeNull();
    expect(litePlan({ type: 'object', properties: { a: { $ref: '#/definitions/x' } }, definitions: { x: { type: 'string' } } }, {})).toBeNull();
    expect(litePlan({ type: 'object', properties: { a: { type: 'string', default: 'x' } } }, {})).toBeNull();
    expect(litePlan({ type: 'object', properties: { a: { type: 'string', enum: ['x'] } } }, {})).toBeNull();
    expect(litePlan(base, { a: { 'ui:widget': 'avatar' } })).toBeNull();
    expect(litePlan(base, { 'ui:order': ['a'] })).toBeNull();
    expect(litePlan({ type: 'object', properties: { a: { type: 'string', format: 'date' } } }, {})).toBeNull();
  });
});

describe('same markup as the rjsf renderer', () => {
  const serverErrors = { email: { code: 'validation_invalid_email', message: 'The email is already in use.' }, password: {} };

  for (const name of AUTH_FORMS) {
    it(`${name}: empty, with server errors, and after a failed submit`, async () => {
      const { schema, uiSchema } = getForm(name);
      const props = { id: 'f', schema, uiSchema, formData: {} };
      expect(await markup(<SchemaForm {...props} />)).toBe(await markup(<RjsfForm {...props} />));
      expect(await markup(<SchemaForm {...props} serverErrors={serverErrors} />)).toBe(await markup(<RjsfForm {...props} serverErrors={serverErrors} />));
      const filled = { ...props, formData: { email: 'nope', password: 'short', passwordConfirm: 'other' } };
      expect(await markup(<SchemaForm {...filled} />, true)).toBe(await markup(<RjsfForm {...filled} />, true));
      expect(await markup(<SchemaForm {...props} disabled />, true)).toBe(await markup(<RjsfForm {...props} disabled />, true));
    });
  }

  it('draws ui:layout decoration cells (a named check status from the form context) the same in both renderers', async () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: { enabled: { type: 'boolean', title: 'Enabled' }, host: { type: 'string', title: 'Host' } },
    };
    const uiSchema: UiSchema = {
      'ui:layout': [
        ['enabled', { 'ui:widget': 'statusLabel', 'ui:options': { check: 's3' } }],
        ['host'],
        [{ 'ui:widget': 'statusLabel', 'ui:options': { check: 'other' } }],
      ],
      enabled: { 'ui:widget': 'toggle' },
    };
    expect(litePlan(schema, uiSchema)).not.toBeNull();
    const formContext: FormContext = { checks: { s3: { status: 'error', text: 'Failed to connect', tooltip: 'No such bucket' } } };
    const props = { schema, uiSchema, formData: {}, formContext };
    // React's generated ids (useId, e.g. the tooltip's) count up across renders: compare them as one
    const sameIds = (html: string) => html.replace(/_r_\d+_/g, '_r_id_');
    const lite = await markup(<Lite {...props} />);
    expect(sameIds(lite)).toBe(sameIds(await markup(<RjsfForm {...props} />)));
    expect(lite).toContain('Failed to connect');
    expect(lite).toContain('No such bucket');
    // a check with nothing to show draws nothing
    expect(await markup(<Lite {...props} formContext={{}} />)).not.toContain('status-label');
  });

  it('other widgets and layouts the lite renderer supports', async () => {
    const schema: RJSFSchema = {
      type: 'object',
      required: ['name', 'agree'],
      properties: {
        name: { type: 'string', title: 'Name', minLength: 3 },
        site: { type: 'string', title: 'Site', format: 'uri' },
        bio: { type: 'string', title: 'Bio', maxLength: 5 },
        token: { type: 'string', title: 'Token' },
        domains: { type: 'string', title: 'Domains' },
        agree: { type: 'boolean', title: 'Agree' },
        plain: { type: 'boolean', title: 'Plain' },
        enabled: { type: 'boolean', title: 'Enabled' },
        nick: { type: 'string' },
      },
    };
    const uiSchema: UiSchema = {
      'ui:layout': [['name', 'site'], ['bio']],
      name: { 'ui:placeholder': 'Your name', 'ui:help': 'Three letters or more.', 'ui:classNames': 'wide' },
      bio: { 'ui:widget': 'textarea', 'ui:options': { rows: 5 } },
      token: { 'ui:widget': 'secret' },
      domains: { 'ui:widget': 'csv' },
      agree: { 'ui:widget': 'checkbox' },
      enabled: { 'ui:widget': 'toggle', 'ui:options': { badge: 'recommended' } },
      nick: { 'ui:title': 'Nickname', 'ui:widget': 'text' },
    };
    const cases: Partial<SchemaFormProps>[] = [
      { formData: {} },
      { formData: { name: 'ab', site: 'not a url', bio: 'too long', token: '******', domains: 'a, b', agree: true, enabled: true } },
      { formData: { name: 'abc' }, serverErrors: { token: { message: 'Bad token.' }, enabled: {} } },
    ];
    for (const c of cases) {
      const props = { schema, uiSchema, formData: {}, ...c };
      expect(await markup(<Lite {...props} />)).toBe(await markup(<RjsfForm {...props} />));
      expect(await markup(<Lite {...props} />, true)).toBe(await markup(<RjsfForm {...props} />, true));
    }
    const columns = { schema, uiSchema: { 'ui:options': { columns: 2 } }, formData: {} };
    expect(await markup(<Lite {...columns} />)).toBe(await markup(<RjsfForm {...columns} />));
  });
});

describe('lite renderer behaviour', () => {
  it("shows 'Minimum 10 characters.' under a too-short password once the field is left", () => {
    const { schema, uiSchema } = getForm('admins/installer');
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} />);
    const password = screen.getByLabelText(/^Password\s*\*?$/);
    fireEvent.change(password, { target: { value: 'short' } });
    expect(screen.queryByText('Minimum 10 characters.')).toBeNull();
    fireEvent.blur(password);
    expect(screen.getByText('Minimum 10 characters.').closest('.sf-field')?.querySelector('input')).toBe(password);
    // the hint steps aside for the error
    expect(screen.queryByText('At least 10 characters.')).toBeNull();
  });

  it("says \"Values don't match.\" under the confirmation (x-sameAs, compiled at build time)", () => {
    const { schema, uiSchema } = getForm('admins/confirm-password-reset');
    render(<Host id="reset" schema={schema} uiSchema={uiSchema} />);
    fireEvent.change(screen.getByLabelText(NEW_PASSWORD), { target: { value: '1234567890' } });
    const confirm = screen.getByLabelText(/^New password confirm\s*\*?$/);
    fireEvent.change(confirm, { target: { value: '1234567899' } });
    fireEvent.blur(confirm);
    expect(screen.getByText("Values don't match.").closest('.sf-field')?.querySelector('input')).toBe(confirm);
    fireEvent.change(confirm, { target: { value: '1234567890' } });
    expect(screen.queryByText("Values don't match.")).toBeNull();
  });

  it('shows every error after a submit attempt, focuses the first, and does not submit invalid data', () => {
    const { schema, uiSchema } = getForm('admins/installer');
    let submitted = 0;
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} onSubmit={() => submitted++} />);
    fireEvent.change(screen.getByLabelText(/^Email\s*\*?$/), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByText('Submit'));
    expect(submitted).toBe(0);
    expect(screen.getByText('Must be a valid email address.')).toBeTruthy();
    expect(screen.getAllByText('Cannot be blank.')).toHaveLength(2);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Email\s*\*?$/));
    expect(screen.getByLabelText(/^Email\s*\*?$/).getAttribute('aria-invalid')).toBe('true');
  });

  it('submits valid data without properties outside the schema', () => {
    const { schema, uiSchema } = getForm('admins/login');
    const seen: unknown[] = [];
    render(<Host id="login" schema={schema} uiSchema={uiSchema} initial={{ extra: 1 }} onSubmit={(d) => seen.push(d)} />);
    fireEvent.change(screen.getByLabelText(/^Email\s*\*?$/), { target: { value: 'admin@example.com' } });
    fireEvent.change(screen.getByLabelText(/^Password\s*\*?$/), { target: { value: 'x' } });
    fireEvent.click(screen.getByText('Submit'));
    expect(seen).toEqual([{ identity: 'admin@example.com', password: 'x' }]);
  });

  it('reports changes with validity and dirtiness; an emptied field becomes undefined', () => {
    const { schema, uiSchema } = getForm('admins/request-password-reset');
    const states: unknown[] = [];
    function Probe() {
      const [data, setData] = useState<Record<string, unknown>>({ email: 'a@b.co' });
      return <SchemaForm schema={schema} uiSchema={uiSchema} formData={data} onChange={(d, s) => (setData(d), states.push([d, s]))} />;
    }
    render(<Probe />);
    const email = screen.getByLabelText(/^Email\s*\*?$/);
    fireEvent.change(email, { target: { value: 'x' } });
    fireEvent.change(email, { target: { value: '' } });
    fireEvent.change(email, { target: { value: 'a@b.co' } });
    expect(states).toEqual([
      [{ email: 'x' }, { isValid: false, isDirty: true }],
      [{ email: undefined }, { isValid: false, isDirty: true }],
      [{ email: 'a@b.co' }, { isValid: true, isDirty: false }],
    ]);
  });

  it('puts a server field error from the store under its field and hides it once edited', async () => {
    const { schema, uiSchema } = getForm('admins/installer');
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} />);
    await act(async () => setFieldErrors({ email: { code: 'validation_invalid_email', message: 'The email is already in use.' } }));
    const email = screen.getByLabelText(/^Email\s*\*?$/);
    expect(screen.getByText('The email is already in use.').closest('.sf-field')?.querySelector('input')).toBe(email);
    fireEvent.change(email, { target: { value: 'other@example.com' } });
    expect(screen.queryByText('The email is already in use.')).toBeNull();
    // a new error response shows it again
    await act(async () => setFieldErrors({ email: { code: 'x', message: 'Again.' } }));
    expect(screen.getByText('Again.')).toBeTruthy();
  });

  it("shows 'Invalid value' for a server error without a message", () => {
    const { schema, uiSchema } = getForm('admins/login');
    render(<Host id="login" schema={schema} uiSchema={uiSchema} serverErrors={{ password: { code: 'x' } }} />);
    expect(screen.getByText('Invalid value').closest('.sf-field')?.querySelector('input')).toBe(screen.getByLabelText(/^Password\s*\*?$/));
  });

  it('disables every input while the page is busy and focuses the autofocus field', () => {
    const { schema, uiSchema } = getForm('admins/login');
    const { unmount } = render(<Host id="login" schema={schema} uiSchema={uiSchema} />);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Email\s*\*?$/));
    unmount();
    render(<Host id="login" schema={schema} uiSchema={uiSchema} disabled />);
    expect(document.querySelectorAll('input:not(:disabled)')).toHaveLength(0);
  });
});
