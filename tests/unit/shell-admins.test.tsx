// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pb } from '../../src/api/client';
import AdminsListPage, { nextSort } from '../../src/pages/admins/AdminsListPage';
import { removeAllToasts, toastsState } from '../../src/shell/toasts';
import { connectApiEvents } from '../../src/app/api-events';

const admins = [
  { id: 'a1', email: 'me@example.com', avatar: 2, created: '2024-01-02 10:00:00.000Z', updated: '2024-01-02 10:00:00.000Z' },
  { id: 'a2', email: 'other@example.com', avatar: 5, created: '2024-01-01 10:00:00.000Z', updated: '2024-01-01 10:00:00.000Z' },
];

// the API client's errors reach the toasts only through the shell's subscription
let disconnect: () => void = () => {};
beforeEach(() => {
  disconnect = connectApiEvents();
  window.location.hash = '#/settings/admins';
  pb.authStore.save('not-a-jwt', { ...admins[0] } as never);
  // a full admin's page also loads the roles (no roles here)
  const send = pb.send.bind(pb);
  vi.spyOn(pb, 'send').mockImplementation(((path: string, options?: Parameters<typeof pb.send>[1]) =>
    path === '/api/outpost/roles' ? Promise.resolve({ items: [] }) : path === '/api/outpost/admin-roles' ? Promise.resolve({}) : send(path, options ?? {})) as typeof pb.send);
});
afterEach(() => {
  disconnect();
  cleanup();
  vi.restoreAllMocks();
  pb.authStore.clear();
  removeAllToasts();
});

async function flush() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}

describe('AdminsListPage', () => {
  it('loads with batch 100 and the default sort, marks the current admin', async () => {
    const spy = vi.spyOn(pb.admins, 'getFullList').mockResolvedValue(admins as never);
    render(<AdminsListPage />);
    await flush();
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ batch: 100, sort: '-created', filter: '' }));
    expect(screen.getByText('me@example.com')).toBeTruthy();
    expect(screen.getAllByText('You')).toHaveLength(1);
    expect(document.title).toBe('Admins - Outpost');
  });

  it('normalises a plain search term from the URL and shows the empty state', async () => {
    window.location.hash = '#/settings/admins?filter=bob&sort=%2Bemail';
    const spy = vi.spyOn(pb.admins, 'getFullList').mockResolvedValue([] as never);
    render(<AdminsListPage />);
    await flush();
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ sort: '+email', filter: "id~'bob' || email~'bob'" }));
    expect(screen.getByText('No admins found.')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    });
    expect(window.location.hash).toBe('#/settings/admins?sort=%2Bemail');
  });

  it('shows no toast for a 400 with a filter', async () => {
    window.location.hash = '#/settings/admins?filter=' + encodeURIComponent("bad='x'");
    const err = Object.assign(new Error('Invalid filter.'), { status: 400, response: { message: 'Invalid filter.', data: {} } });
    vi.spyOn(pb.admins, 'getFullList').mockRejectedValue(err);
    render(<AdminsListPage />);
    await flush();
    expect(toastsState.items).toHaveLength(0);
    expect(screen.getByText('No admins found.')).toBeTruthy();
  });

  it('shows other failures as an error toast (the API client reports, the shell shows)', async () => {
    const err = Object.assign(new Error('Boom.'), { status: 500, response: { message: 'Something broke.', data: {} } });
    vi.spyOn(pb.admins, 'getFullList').mockRejectedValue(err);
    render(<AdminsListPage />);
    await flush();
    expect(toastsState.items.map((t) => [t.type, t.message])).toEqual([['error', 'Something broke.']]);
  });

  it('puts the sort into the URL from the column headers', async () => {
    vi.spyOn(pb.admins, 'getFullList').mockResolvedValue(admins as never);
    render(<AdminsListPage />);
    await flush();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^email/ }));
    });
    expect(window.location.hash).toBe('#/settings/admins?sort=-email');
    expect(nextSort('-email', 'email')).toBe('+email');
    expect(nextSort('+email', 'email')).toBe('-email');
    expect(nextSort('-created', 'email')).toBe('-email');
  });
});
