import { useEffect, useRef, useState } from 'react';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import { AnnounceThrottle, scoreSentence } from '../announce.ts';

/** A polite live region, so a screen reader hears score changes without a flood. */
export function ScoreAnnouncer({ game }: { game: ScoreboardFields }) {
  const text = scoreSentence(game);
  const [spoken, setSpoken] = useState('');
  const throttle = useRef<AnnounceThrottle | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  throttle.current ??= new AnnounceThrottle(text);

  useEffect(() => {
    const t = throttle.current;
    if (!t) return;
    const delay = t.next(text, Date.now());
    if (delay === null) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      t.spoken(text, Date.now());
      setSpoken(text);
    }, delay);
  }, [text]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <p
      className="visually-hidden"
      aria-live="polite"
      aria-atomic="true"
      data-testid="score-announcer"
    >
      {spoken}
    </p>
  );
}
