import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.PLINK_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: {
    alias: {
      // The contracts lib ships CommonJS in dist; the SPA bundles its TypeScript source instead.
      '@plink/contracts': fileURLToPath(new URL('../../libs/contracts/src/index.ts', import.meta.url)),
      // The landing page component of the editor's live preview: its browser-safe entry, as source.
      '@plink/page-render': fileURLToPath(new URL('../../libs/page-render/src/browser.ts', import.meta.url)),
    },
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
  },
});
