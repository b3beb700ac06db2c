/**
 * The browser-safe entry of @plink/page-render: the component, its stylesheet and pure helpers.
 * The SPA (editor live preview) imports this file as TypeScript source through a Vite alias; it
 * pulls in no Node-only code (no react-dom/server).
 */
export * from './components';
