import type { ButtonHTMLAttributes } from 'react';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'disabled'> & {
  /** The write it starts: a TanStack mutation, or a useAction (lib/use-action.ts). */
  write: { isPending: boolean };
};

/** A button that starts a write, off while that write runs so that a second tap cannot send it twice. */
export function WriteButton({ write, ...button }: Props) {
  return <button type="button" disabled={write.isPending} {...button} />;
}
