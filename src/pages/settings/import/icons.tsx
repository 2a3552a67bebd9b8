// Stroke icons of the export and import screens (same style as src/app/icons.tsx).
import type { ReactNode } from 'react';

function Icon({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const IconDownload = (p: { size?: number }) => (
  <Icon {...p}>
    <path d="M12 4v11" />
    <path d="M7 10.5l5 5 5-5" />
    <path d="M5 19.5h14" />
  </Icon>
);
export const IconUpload = (p: { size?: number }) => (
  <Icon {...p}>
    <path d="M12 16V5" />
    <path d="M7 9.5l5-5 5 5" />
    <path d="M5 19.5h14" />
  </Icon>
);
export const IconCopy = (p: { size?: number }) => (
  <Icon {...p}>
    <rect x="8.5" y="8.5" width="11" height="11" rx="2" />
    <path d="M15.5 8.5V6.5a2 2 0 0 0-2-2h-7a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h2" />
  </Icon>
);
export const IconArrowRight = (p: { size?: number }) => (
  <Icon {...p}>
    <path d="M5 12h14" />
    <path d="M13 6l6 6-6 6" />
  </Icon>
);
export const IconInfo = (p: { size?: number }) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 11v5" />
    <path d="M12 8h.01" />
  </Icon>
);
