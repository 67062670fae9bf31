import { useCallback, useState } from 'react';
import { Icon } from '../../../components/icon.tsx';

const SUN_KEY = 'sagan-bright-sun';

function readSun(): boolean {
  try {
    return localStorage.getItem(SUN_KEY) === '1';
  } catch {
    return false;
  }
}

/** Bright-sun board: black on white, for a phone outdoors. Remembered on this device. */
export function useSunMode(): [boolean, () => void] {
  const [on, setOn] = useState(readSun);
  const toggle = useCallback(() => {
    setOn((v) => {
      try {
        localStorage.setItem(SUN_KEY, v ? '0' : '1');
      } catch {
        // No storage (private mode): the choice lasts for this page.
      }
      return !v;
    });
  }, []);
  return [on, toggle];
}

export function SunToggle({ on, onToggle }: { on: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="btn sun-toggle"
      aria-label="Bright sun"
      aria-pressed={on}
      onClick={onToggle}
    >
      <Icon size={20}>
        <circle cx="12" cy="12" r="4.5" fill="currentColor" />
        <path
          d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </Icon>
      <span className="label-wide-only">Bright sun</span>
    </button>
  );
}
