import { useSyncExternalStore } from 'react';
import { formatStart } from '@sagan/shared/game-schedule';

const never = () => () => {};

/**
 * A scheduled game's start in the viewer's own time zone. The server renders the page without
 * knowing that zone, so it sends the slot empty, at a fixed width, and the browser fills it in
 * after taking over: the page neither jumps nor shows the server's zone for a moment.
 */
export function StartTime({ at }: { at: number }) {
  const text = useSyncExternalStore(
    never,
    () => formatStart(at),
    () => '',
  );
  return (
    <time className="start-time" dateTime={new Date(at).toISOString()}>
      {text}
    </time>
  );
}
