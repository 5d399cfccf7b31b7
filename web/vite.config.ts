// The hub's build: a single-page app from web/ into web/dist, served by `switchboard serve` at /.
// No inline script or style in the output (the hub's CSP is script-src 'self'). Text files are
// also written compressed beside themselves (.br, .gz), which the server sends to a browser that
// accepts them (src/hub/static.ts, preCompressed): compressed once here, not on every request.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Smaller than this, a compressed copy saves less than its headers cost. */
const PRECOMPRESS_MIN_BYTES = 1024;

function precompress(): Plugin {
  return {
    name: 'switchboard-precompress',
    apply: 'build',
    writeBundle(options) {
      const dir = options.dir;
      if (!dir) return;
      for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(js|css|html|svg|json|txt)$/.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const buf = fs.readFileSync(file);
        if (buf.length < PRECOMPRESS_MIN_BYTES) continue;
        fs.writeFileSync(`${file}.br`, brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }));
        fs.writeFileSync(`${file}.gz`, gzipSync(buf, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), precompress()],
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
