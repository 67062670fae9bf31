import type { ReactNode } from 'react';

// Inline icons (no icon library, STYLE: small bundle): each drawn on a 24-unit square in the
// text's colour. Decorative: the button or link that holds one names it.

export function Icon({ size, children }: { size: number; children: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

/** An outline (a bookmark, a heart, a star), filled in while what it stands for is on. */
export function ToggleIcon({ d, filled }: { d: string; filled: boolean }) {
  return (
    <Icon size={22}>
      <path
        d={d}
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </Icon>
  );
}
