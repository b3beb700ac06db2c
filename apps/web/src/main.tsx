import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/inter.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, startSignedOut } from './app/App';
import { isPrerendered } from './app/prerendered';

// A prerendered screen arrives with the CSS its markup uses inline and the whole stylesheet as media="print"
// (scripts/build.mjs), so that stylesheet does not hold back its first paint: apply it now.
for (const link of document.querySelectorAll<HTMLLinkElement>('link[data-plink-full-css]')) link.media = 'all';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// The home, terms and privacy pages arrive prerendered (for signed-out visitors): hydrate them. Every other
// screen arrives with only the brand loader in #root, which the app replaces.
if (isPrerendered(root)) {
  startSignedOut();
  hydrateRoot(root, app);
} else {
  createRoot(root).render(app);
}
