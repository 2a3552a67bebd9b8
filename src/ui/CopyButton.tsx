// The one copy button of the dashboard: copies a value and shows the success icon for
// COPY_SUCCESS_MS (ids, keys and values in lists, editors, the request log panel, API docs).
import { useEffect, useRef, useState } from 'react';
import { copyText } from '../lib/browser-io';
import { IconCheck, IconCopy } from './icons';
import { t } from './i18n';

const COPY_SUCCESS_MS = 500;

export interface CopyButtonProps {
  value: string;
  /** accessible name; the value itself is never read out */
  label?: string;
  className?: string;
}

export function CopyButton({ value, label = t('common.copy'), className = '' }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function onClick(e: React.MouseEvent) {
    // rows and cards around a copy button open on click; copying must not
    e.stopPropagation();
    await copyText(value);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_SUCCESS_MS);
  }

  return (
    <button
      type="button"
      className={`btn btn-transparent btn-sm btn-circle copy-btn ${copied ? 'copy-btn-done' : ''} ${className}`}
      aria-label={label}
      data-copied={copied || undefined}
      onClick={onClick}
    >
      {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
    </button>
  );
}
