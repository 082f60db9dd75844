import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html.');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

if (container.firstElementChild) {
  // A prerendered public page (src/web/app/prerender.tsx): React takes over its markup rather
  // than drawing it again, in a transition so that the work is cut into short tasks that leave
  // the page responsive.
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  createRoot(container).render(app);
}
