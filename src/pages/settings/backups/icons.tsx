// Icons of the backups list (the shared set in src/ui/icons.tsx has no archive or trash icon).
const common = { width: 16, height: 16, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const;

export const IconZip = () => (
  <svg {...common} width={20} height={20}>
    <path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8z" />
    <path d="M14 3v5h5" />
    <path d="M10 5h1M10 8h1M10 11h1M10 14h1" />
    <rect x="9.5" y="16" width="2" height="2.5" rx="0.5" />
  </svg>
);

export const IconRestore = () => (
  <svg {...common}>
    <path d="M3 12a9 9 0 1 0 3-6.7" />
    <path d="M3 4v5h5" />
  </svg>
);

export const IconTrash = () => (
  <svg {...common}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  </svg>
);
