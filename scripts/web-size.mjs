// The hub's initial JavaScript: every script and module preload that web/dist/index.html loads
// before any route's own chunk, gzipped, and as sent (the build's brotli copies). The budget is 250 KB; the heavy parts of a
// screen (the usage chart, the workflow builder with @xyflow/react, the automation builder) load
// on their route and are not counted. `node scripts/web-size.mjs` prints the figure and the
// builders' (what their routes load on top of the initial JS) and exits 1 over the budget; the
// test suite checks them (test/hub/web-size.test.ts).
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
    const file = path.join(dist, ref.replace(/^\//, ''));
    const buf = fs.readFileSync(file);
    // What a browser is sent (the build's .br copy, src/hub/static.ts); the file itself when none was built.
    const brotli = fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : buf.length;
    return { file: ref, bytes: buf.length, gzipped: gzipSync(buf, { level: 9 }).length, brotli };
  });
  return { files, gzipped: files.reduce((n, f) => n + f.gzipped, 0), brotli: files.reduce((n, f) => n + f.brotli, 0) };
}

const gz = (dist, ref) => {
  const buf = fs.readFileSync(path.join(dist, ref.replace(/^\//, '')));
  return { file: ref, bytes: buf.length, gzipped: gzipSync(buf, { level: 9 }).length, text: buf.toString('utf8') };
};

/**
 * What a route's chunk (the lazy page module named `name`, e.g. WorkflowBuilder) loads beyond
 * the initial JS: its own file and every chunk it imports statically, transitively.
 */
export function routeJs(name, dist = DIST) {
  const assets = fs.readdirSync(path.join(dist, 'assets'));
  const entry = assets.find((f) => f.startsWith(`${name}-`) && f.endsWith('.js'));
  if (!entry) throw new Error(`no ${name}-*.js chunk in ${dist}/assets: build the web first`);
  const initial = new Set(initialJs(dist).files.map((f) => f.file));
  const seen = new Set();
  const todo = [`/assets/${entry}`];
  while (todo.length) {
    const ref = todo.pop();
    if (seen.has(ref) || initial.has(ref)) continue;
    seen.add(ref);
    const text = fs.readFileSync(path.join(dist, ref.slice(1)), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)) todo.push(`/assets/${m[1]}`);
  }
  const files = [...seen].map((ref) => gz(dist, ref));
  return { files, gzipped: files.reduce((n, f) => n + f.gzipped, 0) };
}

/** The initial JS files' text: what must not carry a route's heavy library. */
export function initialText(dist = DIST) {
  return initialJs(dist).files.map((f) => gz(dist, f.file).text).join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, gzipped, brotli } = initialJs();
  for (const f of files) console.log(`${f.file}\t${(f.bytes / 1024).toFixed(1)} KB\t${(f.gzipped / 1024).toFixed(1)} KB gzipped\t${(f.brotli / 1024).toFixed(1)} KB sent (brotli)`);
  console.log(`initial JS: ${(gzipped / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB), ${(brotli / 1024).toFixed(1)} KB sent to a browser (brotli)`);
  const builder = routeJs('WorkflowBuilder');
  for (const f of builder.files) console.log(`${f.file}\t${(f.bytes / 1024).toFixed(1)} KB\t${(f.gzipped / 1024).toFixed(1)} KB gzipped`);
  console.log(`workflow builder chunk: ${(builder.gzipped / 1024).toFixed(1)} KB gzipped, loaded on /workflows/new and /workflows/:id/build only`);
  const automations = routeJs('AutomationBuilder');
  for (const f of automations.files) console.log(`${f.file}\t${(f.bytes / 1024).toFixed(1)} KB\t${(f.gzipped / 1024).toFixed(1)} KB gzipped`);
  console.log(`automation builder chunk: ${(automations.gzipped / 1024).toFixed(1)} KB gzipped, loaded on /automations/:id/build only`);
  process.exitCode = gzipped > BUDGET_BYTES ? 1 : 0;
}
