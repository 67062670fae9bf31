import { useCallback, useEffect, useState } from 'react';

// Dark mode. public/theme-init.js applies the theme before first paint; this hook keeps
// it in step: the system setting rules until the visitor picks one with the toggle.
export type Theme = 'light' | 'dark';
const THEME_KEY = 'sagan-theme';

function stored(): Theme | null {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'dark' || v === 'light' ? v : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  // No window while the server renders the first paint (docs/decisions/0013); the real theme
  // is set before that paint by public/theme-init.js either way.
  if (typeof window === 'undefined') return 'light';
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function apply(theme: Theme): void {
  document.documentElement.setAttribute('data-theme', theme);
}

export function useTheme(): { theme: Theme; toggle: () => void } {
  const [theme, setTheme] = useState<Theme>(() => stored() ?? systemTheme());

  useEffect(() => {
    apply(theme);
  }, [theme]);

  useEffect(() => {
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    if (!mq) return;
    const onChange = () => {
      if (!stored()) setTheme(mq.matches ? 'dark' : 'light');
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  const toggle = useCallback(() => {
    setTheme((t) => {
      const next: Theme = t === 'dark' ? 'light' : 'dark';
      try {
        localStorage.setItem(THEME_KEY, next);
      } catch {
        // Private mode without storage: the choice lasts for this page only.
      }
      return next;
    });
  }, []);

  return { theme, toggle };
}
