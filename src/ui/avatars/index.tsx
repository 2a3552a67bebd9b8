// Ten small avatars (admin.avatar 0-9): a tinted tile with a simple geometric mark each.
import type { ReactElement } from 'react';

type AvatarDef = { bg: string; fg: string; mark: ReactElement };

const AVATARS: AvatarDef[] = [
  { bg: '#e7f5ff', fg: '#1c7ed6', mark: <circle cx="16" cy="16" r="7" /> },
  { bg: '#ebfbee', fg: '#2f9e44', mark: <rect x="9" y="9" width="14" height="14" rx="3" /> },
  { bg: '#fff4e6', fg: '#e8590c', mark: <path d="M16 8 L24 23 H8 Z" /> },
  { bg: '#f3f0ff', fg: '#7048e8', mark: <path d="M16 7 L25 16 L16 25 L7 16 Z" /> },
  { bg: '#fff0f6', fg: '#d6336c', mark: <path d="M16 24 C8 18 8 10 12.5 10 C14.5 10 16 12 16 12 C16 12 17.5 10 19.5 10 C24 10 24 18 16 24 Z" /> },
  { bg: '#e6fcf5', fg: '#0c8599', mark: <path d="M7 19 Q11.5 11 16 19 T25 19" fill="none" strokeWidth="3" strokeLinecap="round" /> },
  { bg: '#fff9db', fg: '#e67700', mark: <path d="M16 7 L18.6 13.2 L25 13.6 L20 17.8 L21.6 24.2 L16 20.6 L10.4 24.2 L12 17.8 L7 13.6 L13.4 13.2 Z" /> },
  { bg: '#edf2ff', fg: '#3b5bdb', mark: <path d="M16 7 L23.8 11.5 V20.5 L16 25 L8.2 20.5 V11.5 Z" /> },
  { bg: '#f8f0fc', fg: '#ae3ec9', mark: <path d="M13 8 H19 V13 H24 V19 H19 V24 H13 V19 H8 V13 H13 Z" /> },
  { bg: '#f1f3f5', fg: '#495057', mark: <path d="M9 21 A7 7 0 0 1 23 21 Z M12 11 h8 v3 h-8 Z" /> },
];

export const AVATAR_COUNT = AVATARS.length;

function avatarIndex(value: unknown): number {
  const n = Math.trunc(Number(value));
  return Number.isFinite(n) && n >= 0 && n < AVATAR_COUNT ? n : 0;
}

export function Avatar({ index, size = 32, className }: { index?: number | null; size?: number; className?: string }) {
  const a = AVATARS[avatarIndex(index)];
  return (
    <svg
      className={`avatar${className ? ' ' + className : ''}`}
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="9" fill={a.bg} />
      <g fill={a.fg} stroke={a.fg}>
        {a.mark}
      </g>
    </svg>
  );
}
