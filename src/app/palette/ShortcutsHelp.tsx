// The '?' list of every keyboard shortcut, in a small popup (Esc or the close button closes it).
// The list is its own focusable scroller: on a short screen it scrolls, and a keyboard must reach it.
import { OverlayPanel } from '../../ui/OverlayPanel';
import { SHORTCUTS } from './shortcuts';
import './palette.css';

export default function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <OverlayPanel open size="popup" onRequestClose={onClose} header={<h2 className="overlay-panel-title">Keyboard shortcuts</h2>} ariaLabel="Keyboard shortcuts" className="shortcuts-popup">
      <div className="shortcuts-list" tabIndex={0} role="region" aria-label="Shortcut list">
        <table className="table shortcuts-table">
          <thead>
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.does}>
                <td>
                  {s.keys.map((k, i) => (
                    <kbd key={i} className="kbd">
                      {k}
                    </kbd>
                  ))}
                </td>
                <td>{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </OverlayPanel>
  );
}
