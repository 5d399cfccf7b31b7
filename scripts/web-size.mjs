// The hub's initial JavaScript: every script and module preload that web/dist/index.html loads
// before any route's own chunk, gzipped. The budget is 250 KB; the heavy parts of a
// screen (the usage chart, later the builders) load on their route and are not counted.
// `node scripts/web-size.mjs` prints the figure and exits 1 over the budget; the test suite
// checks it too (test/hub/web-size.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 250 * 1024;
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web/dist');

/** The initial JS files (paths under web/dist) and their gzipped sizes. */
export function initialJs(dist = DIST) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = new Set();
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)) refs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)) refs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*href="([^"]+\.js)"[^>]*rel="modulepreload"/g)) refs.add(m[1]);
  const files = [...refs].map((ref) => {
    const buf = fs.readFileSync(path.join(dist, ref.replace(/^\//, '')));
    return { file: ref, bytes: buf.length, gzipped: gzipSync(buf, { level: 9 }).length };
  });
  return { files, gzipped: files.reduce((n, f) => n + f.gzipped, 0) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, gzipped } = initialJs();
  for (const f of files) console.log(`${f.file}\t${(f.bytes / 1024).toFixed(1)} KB\t${(f.gzipped / 1024).toFixed(1)} KB gzipped`);
  console.log(`initial JS: ${(gzipped / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB)`);
  process.exitCode = gzipped > BUDGET_BYTES ? 1 : 0;
}
