import type { ReactNode } from 'react';

/**
 * A form's row of buttons, then the word that says the last press worked (Saved, Sent,
 * Copied…), read out by screen readers as it appears. Nothing shows while `done` is empty.
 */
export function ButtonRow({ done, children }: { done: ReactNode; children: ReactNode }) {
  return (
    <div className="btn-row">
      {children}
      {done && (
        <span className="form-ok" role="status">
          {done}
        </span>
      )}
    </div>
  );
}
