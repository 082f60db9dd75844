import { useEffect, useRef } from 'react';

/**
 * Runs a step once the form is no longer busy and has rendered so: a mutation's onError runs
 * while its fields are still disabled, and a disabled field cannot take the focus.
 */
export function useWhenIdle(busy: boolean): (step: () => void) => void {
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (busy || !pending.current) return;
    const step = pending.current;
    pending.current = null;
    step();
  });
  return (step) => {
    pending.current = step;
  };
}
