import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { registerServiceWorker } from './lib/service-worker';
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
  // than drawing it again. Tried and dropped (decision 009): hydrating in a transition, after
  // the first paint, or from a chunk fetched after it; each raised total blocking time more
  // than it saved.
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}

registerServiceWorker();
