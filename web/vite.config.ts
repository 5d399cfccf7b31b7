// The hub's build: a single-page app from web/ into web/dist, served by `switchboard serve` at /.
// No inline script or style in the output (the hub's CSP is script-src 'self').
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  // The server's enums and status lists (src/domain: plain data, no Node import), declared once
  // and imported by the pages, never retyped. @server: the server's pure schema modules
  // (src/**/schemas.ts), imported with `import type` only, so none of it reaches the bundle.
  resolve: {
    alias: {
      '@domain': fileURLToPath(new URL('../src/domain', import.meta.url)),
      '@server': fileURLToPath(new URL('../src', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Module preload's polyfill is an inline script; every browser the hub supports has it natively.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: { proxy: { '/hub/api': 'http://127.0.0.1:8080', '/v1': 'http://127.0.0.1:8080' } },
});
