// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  TOAST_DURATIONS,
  Toasts,
  addErrorToast,
  addInfoToast,
  addSuccessToast,
  addToast,
  addWarningToast,
  removeAllToasts,
  toastsState,
} from '../../src/shell/toasts';

beforeEach(() => {
  vi.useFakeTimers();
  removeAllToasts();
});
afterEach(() => {
  cleanup();
  removeAllToasts();
  vi.useRealTimers();
});

describe('toasts', () => {
  it('uses the spec durations', () => {
    expect(TOAST_DURATIONS).toEqual({ info: 4000, success: 3000, error: 4500, warning: 4500 });
    addInfoToast('i');
    addSuccessToast('s');
    addErrorToast('e');
    addWarningToast('w');
    expect(toastsState.items.map((t) => [t.type, t.duration])).toEqual([
      ['info', 4000],
      ['success', 3000],
      ['error', 4500],
      ['warning', 4500],
    ]);
  });

  it('auto-dismisses each toast after its duration', () => {
    addSuccessToast('saved');
    addErrorToast('failed');
    vi.advanceTimersByTime(2999);
    expect(toastsState.items).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(toastsState.items.map((t) => t.message)).toEqual(['failed']);
    vi.advanceTimersByTime(1500);
    expect(toastsState.items).toHaveLength(0);
  });

  it('replaces a toast with an identical message (and restarts its timer)', () => {
    const first = addErrorToast('Same message');
    vi.advanceTimersByTime(4000);
    const second = addSuccessToast('Same message');
    expect(second).not.toBe(first);
    expect(toastsState.items).toHaveLength(1);
    expect(toastsState.items[0]).toMatchObject({ type: 'success', message: 'Same message' });
    vi.advanceTimersByTime(1000); // the old error timer would have fired by now
    expect(toastsState.items).toHaveLength(1);
    vi.advanceTimersByTime(2000);
    expect(toastsState.items).toHaveLength(0);
  });

  it('accepts a custom duration', () => {
    addToast('info', 'Copied x to clipboard', 2000);
    vi.advanceTimersByTime(1999);
    expect(toastsState.items).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toastsState.items).toHaveLength(0);
  });

  it('renders typed toasts with a close button', async () => {
    render(<Toasts />);
    await act(async () => {
      addErrorToast('Boom');
      addInfoToast('Hello');
    });
    const toasts = screen.getAllByTestId('toast');
    expect(toasts).toHaveLength(2);
    expect(toasts[0].className).toContain('toast-error');
    expect(toasts[0].getAttribute('role')).toBe('alert');
    expect(toasts[1].className).toContain('toast-info');
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[0]);
    });
    expect(screen.queryByText('Boom')).toBeNull();
    expect(screen.getByText('Hello')).toBeTruthy();
  });
});
