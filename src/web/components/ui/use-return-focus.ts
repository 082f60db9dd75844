import { useRef } from 'react';

type FocusHandler = (event: Event) => void;

/** Rows of a list: table rows, ARIA rows, and the cards a list shows on a phone. */
const ROW = 'tr, [role="row"], [data-focus-row]';

interface Opener {
  element: HTMLElement | null;
  row: HTMLElement | null;
  /** the row's list (tbody, ul) and its place in it, for when the row itself is gone */
  list: HTMLElement | null;
  index: number;
}

function focusQuietly(target: HTMLElement) {
  if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) {
    target.setAttribute('tabindex', '-1');
  }
  target.focus({ preventScroll: true });
}

/** Where the focus goes back to: the opener, else its row, else the row now in its place. */
export function returnFocusTarget(opener: Opener): HTMLElement | null {
  const { element, row, list, index } = opener;
  if (element && element !== document.body && element.isConnected) return element;
  if (row?.isConnected) return row;
  if (list?.isConnected) {
    const rows = [...list.children].filter(
      (child): child is HTMLElement => child instanceof HTMLElement && child.matches(ROW),
    );
    if (rows.length > 0) return rows[Math.min(index, rows.length - 1)];
  }
  return null;
}

/**
 * Gives the focus back, when an overlay closes, to the element that held it when the overlay
 * opened. Radix returns focus only to its own Trigger; overlays opened from state (a table
 * row's button, the sidebar toggle) have none, so the focus fell to <body> and a keyboard user
 * had to start again from the top of the page.
 *
 * When the opener is gone by then (a row's Assign button becomes 'Assigned'), the focus goes to
 * its row instead; when the row is gone too (assigned under the "New" filter, it leaves the
 * list), to the row that took its place, so the keyboard user goes on from where they were.
 *
 * Spread the answer on the overlay's Content. The caller's own handlers run first; one that
 * prevents the default keeps the choice.
 */
export function useReturnFocus(handlers: {
  onOpenAutoFocus?: FocusHandler;
  onCloseAutoFocus?: FocusHandler;
}) {
  const opener = useRef<Opener | null>(null);
  return {
    // runs as the overlay mounts, before it moves the focus inside itself
    onOpenAutoFocus: (event: Event) => {
      const element = document.activeElement as HTMLElement | null;
      const row = element?.closest<HTMLElement>(ROW) ?? null;
      const list = row?.parentElement ?? null;
      opener.current = {
        element,
        row,
        list,
        index: list && row ? [...list.children].indexOf(row) : 0,
      };
      handlers.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      handlers.onCloseAutoFocus?.(event);
      const saved = opener.current;
      opener.current = null;
      if (event.defaultPrevented || !saved) return;
      const target = returnFocusTarget(saved);
      if (target) {
        event.preventDefault();
        focusQuietly(target);
      }
    },
  };
}
