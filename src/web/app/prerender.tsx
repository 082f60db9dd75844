import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App, HYDRATING } from './app';

export { prerenderedPages } from './prerendered-pages';

/**
 * The page's markup as the first client render draws it (no user, no data yet: the packages show
 * their placeholders) and its title, taken out of the markup for the document's head.
 */
export function renderPage(path: string): { title: string | null; html: string } {
  // the same tree as main.tsx, so that hydration finds what it renders (useId included)
  const markup = renderToString(
    <Router ssrPath={path}>
      <StrictMode>
        <App />
      </StrictMode>
    </Router>,
  );
  let title: string | null = null;
  const html = markup
    .replace(/<title>([^<]*)<\/title>/, (_match, text: string) => {
      title = text;
      return '';
    })
    // Until React has hydrated it, a form is only drawn: submitted natively it would send the
    // password in the query string, and what someone typed would not reach React's state. inert
    // and readonly keep it out of reach without changing its look; App removes them (app.tsx).
    .replace(/<form\b/g, `<form inert="" ${HYDRATING}=""`)
    .replace(/<input\b/g, `<input readonly="" ${HYDRATING}=""`);
  return { title, html };
}
