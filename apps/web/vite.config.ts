import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const apiTarget = process.env.PLINK_API_URL ?? 'http://localhost:3000';
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The contracts' test data (`@plink/contracts/testing`, for the tests only): a build that reaches it stops. */
const testDataFolders = [source('../../libs/contracts/src/testing/'), source('../../libs/contracts/dist/testing/')];
const noTestData: Plugin = {
  name: 'plink:no-test-data',
  load(id) {
    if (testDataFolders.some((folder) => id.startsWith(folder))) {
      this.error(`${id} is test data (@plink/contracts/testing): the app must not import it`);
    }
    return null;
  },
};

export default defineConfig({
  base: '/',
  plugins: [react(), noTestData],
  resolve: {
    // Exact names: a path under a package (`@plink/contracts/testing`) is not rewritten into this source file.
    alias: [
      // The contracts lib ships CommonJS in dist; the SPA bundles its TypeScript source instead.
      { find: /^@plink\/contracts$/, replacement: source('../../libs/contracts/src/index.ts') },
      // The landing page component of the editor's live preview: its browser-safe entry, as source.
      { find: /^@plink\/page-render$/, replacement: source('../../libs/page-render/src/browser.ts') },
    ],
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/uploads': apiTarget,
      '/fonts': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Read by scripts/first-load.mjs (the dashboard's first-load JavaScript).
    manifest: true,
    // Every browser the app supports preloads modules itself: no polyfill in the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What every screen loads first (the entry and everything it imports) in one file rather than in many
        // small shared chunks, which compress worse apart.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
});
