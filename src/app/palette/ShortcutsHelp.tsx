// The '?' list of every keyboard shortcut, in a small popup (Esc or the close button closes it).
// The list is its own focusable scroller: on a short screen it scrolls, and a keyboard must reach it.
import { OverlayPanel } from '../../ui/OverlayPanel';
import { SHORTCUTS } from './shortcuts';
import './palette.css';
import { t } from '../../ui/i18n';

export default function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <OverlayPanel open size="popup" onRequestClose={onClose} header={<h2 className="overlay-panel-title">{t('shortcuts.title')}</h2>} ariaLabel={t('shortcuts.title')} className="shortcuts-popup">
      <div className="shortcuts-list" tabIndex={0} role="region" aria-label={t('shortcuts.list')}>
        <table className="table shortcuts-table">
          <thead>
            <tr>
              <th scope="col">{t('shortcuts.keys')}</th>
              <th scope="col">{t('shortcuts.action')}</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.does}>
                <td>
                  {s.keys.map((k, i) => (
                    <kbd key={i} className="kbd">
                      {s.keyWords?.includes(k) ? t(k) : k}
                    </kbd>
                  ))}
                </td>
                <td>{t(s.does)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </OverlayPanel>
  );
}
