// Where this program's own files are, for the code that opens files beside it: the SQL
// migrations, the page worker, the hub's build and package.json.
//
// `npm start` runs a bundle (dist/switchboard.js and its chunks, scripts/bundle.mjs), tests and
// tsx run src/ as is, and the page worker runs the compiled dist/ files: a module's own
// import.meta.url says which file it was bundled into, not where it came from. So the package
// root is found once by walking up from here to the package.json that names this program, and
// every path is derived from that root and from whether this is TypeScript run from source.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'switchboard';

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === PACKAGE_NAME) return dir;
    } catch {
      // no package.json here, or not ours: keep walking up
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package.json above ${from}`);
  }
}

const HERE = fileURLToPath(import.meta.url);

/** The checkout or installed package: package.json, web/dist, src/ and dist/. */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(HERE));

/** True when running the TypeScript sources (tests, tsx), false for the build. */
export const FROM_SOURCE = HERE.endsWith('.ts');

/** src/ when running from source, dist/ when built: where the compiled module tree lives. */
export const CODE_DIR = path.join(PACKAGE_ROOT, FROM_SOURCE ? 'src' : 'dist');

/** A module of the tree by its path without extension ("lib/page-worker"): .ts from source, .js built. */
export function moduleFile(relativeNoExt: string): string {
  return path.join(CODE_DIR, `${relativeNoExt}.${FROM_SOURCE ? 'ts' : 'js'}`);
}
