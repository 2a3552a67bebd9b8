// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OverlayPanel, type OverlayPanelProps } from '../../src/ui/OverlayPanel';
import { ConfirmPopup, confirm, resetConfirmation } from '../../src/shell/confirm';

afterEach(async () => {
  cleanup();
  await act(async () => resetConfirmation());
});

type HarnessProps = Partial<OverlayPanelProps> & { onClosed?: () => void };

function Harness({ onClosed, ...props }: HarnessProps) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <OverlayPanel
        open={open}
        header="Panel title"
        footer={<button type="button">Save</button>}
        {...props}
        onRequestClose={() => {
          setOpen(false);
          onClosed?.();
        }}
      >
        <input aria-label="Name" />
        <button type="button">Inside</button>
      </OverlayPanel>
    </div>
  );
}

function openPanel() {
  const opener = screen.getByRole('button', { name: 'Open' });
  opener.focus();
  act(() => {
    fireEvent.click(opener);
  });
  return opener;
}

describe('OverlayPanel', () => {
  it('moves focus into the panel, blocks body scroll and restores focus on hide', async () => {
    render(<Harness />);
    const opener = openPanel();
    const dialog = screen.getByRole('dialog', { name: 'Panel title' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.body.classList.contains('overlay-active')).toBe(true);
    expect((dialog.parentElement as HTMLElement).style.zIndex).toBe('1001');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(document.body.classList.contains('overlay-active')).toBe(false);
  });

  it('closes on Escape unless focus is in an input', async () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} />);
    openPanel();
    const input = screen.getByRole('textbox', { name: 'Name' });
    input.focus();
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Escape' });
    });
    expect(onClosed).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();

    const inside = screen.getByRole('button', { name: 'Inside' });
    inside.focus();
    await act(async () => {
      fireEvent.keyDown(inside, { key: 'Escape' });
    });
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('respects escClose and overlayClose being off', async () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} escClose={false} overlayClose={false} />);
    openPanel();
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Escape' });
      fireEvent.click(document.querySelector('.overlay-backdrop')!);
    });
    expect(onClosed).not.toHaveBeenCalled();
  });

  it('closes on a backdrop click', async () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} />);
    openPanel();
    await act(async () => {
      fireEvent.click(document.querySelector('.overlay-backdrop')!);
    });
    expect(onClosed).toHaveBeenCalledTimes(1);
  });

  it('lets beforeHide veto closing (sync and async)', async () => {
    let allow = false;
    const beforeHide = vi.fn(async () => allow);
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} beforeHide={beforeHide} />);
    openPanel();
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Escape' });
    });
    expect(beforeHide).toHaveBeenCalledTimes(1);
    expect(onClosed).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();

    allow = true;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    });
    expect(onClosed).toHaveBeenCalledTimes(1);
  });

  it('lets beforeOpen veto opening', () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} beforeOpen={() => false} />);
    openPanel();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onClosed).toHaveBeenCalled();
  });

  it('stacks panels: only the top one reacts to Escape', async () => {
    const outerClosed = vi.fn();
    const innerClosed = vi.fn();
    function Stack() {
      const [inner, setInner] = useState(true);
      return (
        <OverlayPanel open header="Outer" onRequestClose={outerClosed}>
          <OverlayPanel
            open={inner}
            header="Inner"
            size="popup"
            onRequestClose={() => {
              setInner(false);
              innerClosed();
            }}
          >
            <button type="button">x</button>
          </OverlayPanel>
        </OverlayPanel>
      );
    }
    render(<Stack />);
    const outer = screen.getByRole('dialog', { name: 'Outer' });
    const inner = screen.getByRole('dialog', { name: 'Inner' });
    expect(Number((inner.parentElement as HTMLElement).style.zIndex)).toBeGreaterThan(
      Number((outer.parentElement as HTMLElement).style.zIndex),
    );
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Escape' });
    });
    expect(innerClosed).toHaveBeenCalledTimes(1);
    expect(outerClosed).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Escape' });
    });
    expect(outerClosed).toHaveBeenCalledTimes(1);
  });

  it('keeps Tab inside the panel', () => {
    render(<Harness />);
    openPanel();
    const save = screen.getByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.keyDown(save, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });
});

describe('confirm popup', () => {
  it('focuses No by default, runs the No callback', async () => {
    const yes = vi.fn();
    const no = vi.fn();
    render(<ConfirmPopup />);
    await act(async () => confirm('Do you really want to delete the selected admin?', yes, no));
    expect(screen.getByText('Do you really want to delete the selected admin?')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'No' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'No' }));
    });
    expect(no).toHaveBeenCalledTimes(1);
    expect(yes).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows loading on Yes while its promise runs, then closes', async () => {
    let resolve!: () => void;
    const yes = vi.fn(() => new Promise<void>((r) => (resolve = r)));
    render(<ConfirmPopup />);
    await act(async () => confirm('Sure?', yes));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    });
    const yesBtn = screen.getByRole('button', { name: 'Yes' });
    expect(yesBtn.className).toContain('btn-loading');
    expect((yesBtn as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      resolve();
    });
    expect(yes).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
