import { useCallback, useId, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * A button that shows and hides a panel (the phone's menu, the user menu): aria-expanded and
 * aria-controls on the button; Escape closes and gives the focus back to the button; a click or
 * the focus going elsewhere closes; a navigation closes.
 */
export function useDisclosure() {
  // Open on the page where it was opened: a navigation closes it.
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpenOn(null), []);

  // Attached as the open panel is committed, not after the next paint as an effect would be:
  // an Escape pressed as soon as the panel shows (a quick hand, or a busy phone that paints
  // late) would otherwise find no listener, and leave the panel open.
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpenOn(null);
      buttonRef.current?.focus();
    };
    const onOutside = (e: Event) => {
      if (e.target instanceof Node && !rootRef.current?.contains(e.target)) setOpenOn(null);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open]);

  return {
    open,
    close,
    rootRef,
    buttonProps: {
      ref: buttonRef,
      type: 'button' as const,
      'aria-expanded': open,
      'aria-controls': panelId,
      onClick: () => setOpenOn(open ? null : pathname),
    },
    panelId,
  };
}
