import { useRef } from 'react';

type FocusHandler = (event: Event) => void;

/**
 * Gives the focus back, when an overlay closes, to the element that held it when the overlay
 * opened. Radix returns focus only to its own Trigger; overlays opened from state (a table
 * row's button, the sidebar toggle) have none, so the focus fell to <body> and a keyboard user
 * had to start again from the top of the page.
 *
 * When the opener is gone by then (a row's Assign button becomes 'Assigned'), the focus goes to
 * its table row instead, so the keyboard user goes on from where they were.
 *
 * Spread the answer on the overlay's Content. The caller's own handlers run first; one that
 * prevents the default keeps the choice.
 */
export function useReturnFocus(handlers: {
  onOpenAutoFocus?: FocusHandler;
  onCloseAutoFocus?: FocusHandler;
}) {
  const opener = useRef<HTMLElement | null>(null);
  const openerRow = useRef<HTMLElement | null>(null);
  return {
    // runs as the overlay mounts, before it moves the focus inside itself
    onOpenAutoFocus: (event: Event) => {
      opener.current = document.activeElement as HTMLElement | null;
      openerRow.current = opener.current?.closest<HTMLElement>('tr, [role="row"]') ?? null;
      handlers.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      handlers.onCloseAutoFocus?.(event);
      const target = opener.current;
      const row = openerRow.current;
      opener.current = null;
      openerRow.current = null;
      if (event.defaultPrevented) return;
      if (target && target !== document.body && target.isConnected) {
        event.preventDefault();
        target.focus({ preventScroll: true });
      } else if (row?.isConnected) {
        event.preventDefault();
        if (!row.hasAttribute('tabindex')) row.setAttribute('tabindex', '-1');
        row.focus({ preventScroll: true });
      }
    },
  };
}
