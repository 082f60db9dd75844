import { useEffect } from 'react';
import { AppProviders } from './providers';
import { AppRouter } from './router';

/** Marks what a prerendered page holds out of reach until React has hydrated it (prerender.tsx). */
export const HYDRATING = 'data-hydrating';

export function App() {
  // runs once React owns the page: a prerendered form becomes usable
  useEffect(() => {
    for (const element of document.querySelectorAll(`[${HYDRATING}]`)) {
      element.removeAttribute('inert');
      element.removeAttribute('readonly');
      element.removeAttribute(HYDRATING);
    }
  }, []);
  return (
    <AppProviders>
      <AppRouter />
    </AppProviders>
  );
}
