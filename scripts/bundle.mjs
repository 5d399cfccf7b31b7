// Part of `npm run build` (after tsc): bundles the compiled CLI (dist/main.js and the modules it
// imports) into dist/switchboard.js, which bin/switchboard.js runs.
//
// Why: the server's start-up went largely to Node's ESM loader resolving, reading and linking
// ~280 of our modules one by one. One file (plus a chunk per module tree imported only on demand,
// so the operator commands, the PostgreSQL driver and the Redis client still load only when used)
// starts measurably faster and with a smaller heap (see CHANGELOG).
//
// Packages stay external: they load from node_modules exactly as they do in tests, but for those in
// INLINE below. The page worker
// (dist/lib/page-worker.js) keeps running the unbundled tsc output: it is a thread of its own.
// Our code finds its files (migrations, web/dist) through src/code-location.ts, which does not
// depend on which file a module ends up in.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

// Chunk names carry a content hash: last build's chunks must not pile up beside this one's.
fs.rmSync(path.join(dist, 'chunks'), { recursive: true, force: true });

/**
 * Packages bundled in, as our own modules are. TypeBox builds every route's schemas while the
 * server starts, and its ESM build is 266 files: Node resolved, read and linked each one, ~100 ms
 * of a start measured at ~2 s (`import('@sinclair/typebox')` alone, 2 runs: 100 and 111 ms); bundled
 * and tree-shaken it is a part of the chunk that uses it, and the embedded store's start to
 * /healthz fell from 2015-2187 to 1766-2067 ms (3 interleaved starts each). It is plain ESM that
 * reads no file of its own package, so bundling it changes nothing else. Others measured with it
 * (fastify, ajv, pino and the fastify plugins) gained a further ~50 ms, not worth giving up loading
 * them exactly as the tests do.
 */
const INLINE = new Set(['@sinclair/typebox']);

/** A bare import stays external unless its package is in INLINE. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const parts = args.path.split('/');
      const pkg = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      return INLINE.has(pkg) ? undefined : { path: args.path, external: true };
    });
  },
};

await build({
  absWorkingDir: root,
  entryPoints: { switchboard: path.join(dist, 'main.js') },
  outdir: dist,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalPackages],
  // Maps follow tsc's own maps back to src/, for stack traces (--enable-source-maps) and profiles.
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log('bundled dist/main.js into dist/switchboard.js');
