import type { KeyboardEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { AVATAR_COUNT, Avatar } from '../ui/avatars';
import { t } from '../ui/i18n';

/** Picks an avatar 0-9: a radio group of images, arrow keys move the choice. */
export function AvatarWidget({ id, value, disabled, readonly, onChange, onBlur, onFocus, label }: WidgetProps) {
  const current = Number.isInteger(value) ? (value as number) : 0;
  const locked = disabled || readonly;
  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step || locked) return;
    e.preventDefault();
    const next = (current + step + AVATAR_COUNT) % AVATAR_COUNT;
    onChange(next);
    (e.currentTarget.querySelector(`[data-avatar="${next}"]`) as HTMLElement | null)?.focus();
  };
  return (
    <div id={id} className="sf-avatars" role="radiogroup" aria-label={label} onKeyDown={onKey}>
      {Array.from({ length: AVATAR_COUNT }, (_, i) => (
        <button
          key={i}
          type="button"
          role="radio"
          data-avatar={i}
          aria-checked={i === current}
          aria-label={t('form.avatar', { n: i })}
          tabIndex={i === current ? 0 : -1}
          className={i === current ? 'sf-avatar sf-avatar--active' : 'sf-avatar'}
          disabled={locked}
          onClick={() => onChange(i)}
          onFocus={() => onFocus(id, current)}
          onBlur={() => onBlur(id, current)}
        >
          <Avatar index={i} size={28} />
        </button>
      ))}
    </div>
  );
}
