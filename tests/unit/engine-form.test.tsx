// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { SchemaForm, getForm, type SchemaFormProps } from '../../src/engine';
import { clearFieldErrors, setFieldErrors } from '../../src/engine/field-errors';

/** The Password label, not 'Password confirm'. */
const PASSWORD = /^Password\s*\*?$/;

afterEach(() => {
  cleanup();
  clearFieldErrors();
});

/** A controlled host, as pages use the form. */
function Host(props: Omit<SchemaFormProps, 'formData'> & { initial?: Record<string, unknown> }) {
  const [data, setData] = useState<Record<string, unknown>>(props.initial ?? {});
  return (
    <>
      <SchemaForm {...props} formData={data} onChange={(d) => setData(d)} />
      <button type="submit" form={props.id}>
        Submit
      </button>
    </>
  );
}

describe('SchemaForm', () => {
  it('renders the fields of a schema with their labels and required markers', () => {
    const { schema, uiSchema } = getForm('admins/installer');
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} />);
    expect(screen.getByLabelText(/^Email\s*\*?$/)).toHaveProperty('type', 'email');
    expect(screen.getByLabelText(PASSWORD)).toHaveProperty('type', 'password');
    expect(screen.getByLabelText(/^Password confirm\s*\*?$/)).toHaveProperty('type', 'password');
    expect(document.querySelectorAll('.sf-required')).toHaveLength(3);
    // no rjsf error list and no rjsf submit button
    expect(document.querySelector('.errors, .panel-danger, button[type="submit"].btn')).toBeNull();
  });

  it("shows 'Minimum 10 characters.' under a too-short password once the field is left", () => {
    const { schema, uiSchema } = getForm('admins/installer');
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} />);
    const password = screen.getByLabelText(PASSWORD);
    fireEvent.change(password, { target: { value: 'short' } });
    expect(screen.queryByText('Minimum 10 characters.')).toBeNull(); // not touched yet
    fireEvent.blur(password);
    const error = screen.getByText('Minimum 10 characters.');
    expect(error.closest('.sf-field')?.querySelector('input')).toBe(password);
  });

  it('shows every error after a submit attempt and does not submit invalid data', () => {
    const { schema, uiSchema } = getForm('admins/installer');
    let submitted = 0;
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} onSubmit={() => submitted++} />);
    fireEvent.change(screen.getByLabelText(/^Email\s*\*?$/), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByText('Submit'));
    expect(submitted).toBe(0);
    expect(screen.getByText('Must be a valid email address.')).toBeTruthy();
    expect(screen.getAllByText('Cannot be blank.')).toHaveLength(2);
  });

  it('submits valid data', () => {
    const { schema, uiSchema } = getForm('admins/installer');
    const seen: unknown[] = [];
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} onSubmit={(d) => seen.push(d)} />);
    fireEvent.change(screen.getByLabelText(/^Email\s*\*?$/), { target: { value: 'admin@example.com' } });
    fireEvent.change(screen.getByLabelText(PASSWORD), { target: { value: '1234567890' } });
    fireEvent.change(screen.getByLabelText(/^Password confirm\s*\*?$/), { target: { value: '1234567890' } });
    fireEvent.click(screen.getByText('Submit'));
    expect(seen).toEqual([{ email: 'admin@example.com', password: '1234567890', passwordConfirm: '1234567890' }]);
  });

  it('puts a server field error from the store under its field and hides it once edited', async () => {
    const { schema, uiSchema } = getForm('admins/installer');
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} />);
    // valtio notifies subscribers asynchronously
    await act(async () => setFieldErrors({ email: { code: 'validation_invalid_email', message: 'The email is already in use.' } }));
    const email = screen.getByLabelText(/^Email\s*\*?$/);
    expect(screen.getByText('The email is already in use.').closest('.sf-field')?.querySelector('input')).toBe(email);
    fireEvent.change(email, { target: { value: 'other@example.com' } });
    expect(screen.queryByText('The email is already in use.')).toBeNull();
  });

  it("shows 'Invalid value' for a server error without a message", () => {
    const { schema, uiSchema } = getForm('admins/installer');
    render(<Host id="installer" schema={schema} uiSchema={uiSchema} serverErrors={{ password: { code: 'x' } }} />);
    expect(screen.getByText('Invalid value').closest('.sf-field')?.querySelector('input')).toBe(screen.getByLabelText(PASSWORD));
  });

  // Conditional schemas are drawn by the rjsf renderer, which SchemaForm loads on demand: wait for it
  // (its first import takes a couple of seconds on a busy machine, past findBy's default 1 s).
  it('shows conditional fields from if/then: password only when creating or changing it', async () => {
    const { schema, uiSchema } = getForm('admins/admin-editor');
    const { unmount } = render(<Host schema={schema} uiSchema={uiSchema} initial={{ email: '', avatar: 0 }} />);
    expect(await screen.findByLabelText(PASSWORD, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    unmount();
    render(<Host schema={schema} uiSchema={uiSchema} initial={{ id: 'abc', email: 'a@b.co', avatar: 3 }} />);
    await screen.findByRole('switch', { name: 'Change password' });
    expect(screen.queryByLabelText(PASSWORD)).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Change password' }));
    expect(screen.getByLabelText(PASSWORD)).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Avatar 3' }).getAttribute('aria-checked')).toBe('true');
  }, 20_000);

  it('shows the error of a list item under the one input that draws the list (csv), from validation and from the server', async () => {
    const { schema, uiSchema } = getForm('settings/trusted-proxy');
    render(<Host id="proxy" schema={schema} uiSchema={uiSchema} errorsPath="trustedProxy" />);
    const input = await screen.findByLabelText(/^Trusted proxy headers\s*\*?$/, {}, { timeout: 10_000 });
    fireEvent.change(input, { target: { value: 'X-Real-IP, X Forwarded' } });
    fireEvent.blur(input);
    expect(screen.getByText('Must be a valid header name.').closest('.sf-field')?.querySelector('input')).toBe(input);
    fireEvent.change(input, { target: { value: 'X-Real-IP' } });
    expect(screen.queryByText('Must be a valid header name.')).toBeNull();
    // the server's answer names the item (trustedProxy.headers.0)
    await act(async () => setFieldErrors({ trustedProxy: { headers: { '0': { code: 'validation_invalid_format', message: 'Refused by the server.' } } } }));
    expect(screen.getByText('Refused by the server.').closest('.sf-field')?.querySelector('input')).toBe(input);
  }, 20_000);
});
