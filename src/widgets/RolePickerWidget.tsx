import { useSnapshot } from 'valtio';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { rolesState } from '../state/roles';
import { t } from '../ui/i18n';

/** Picks an admin's role by id; the choices come from the roles store, '' is a full admin. */
export function RolePickerWidget({ id, htmlName, value, disabled, readonly, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const snap = useSnapshot(rolesState);
  return (
    <select
      id={id}
      name={htmlName || id}
      className="sf-input sf-select"
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    >
      <option value="">{t('roles.fullAdminNoRole')}</option>
      {snap.roles.map((r) => (
        <option key={r.id} value={r.id}>
          {r.name}
        </option>
      ))}
    </select>
  );
}
