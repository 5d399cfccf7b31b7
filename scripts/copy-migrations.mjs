// Part of `npm run build`: copies the SQL migrations beside the compiled migrator
// (src/db/migrations/*.sql → dist/db/migrations), which reads them only from beside itself, so a
// build carries its own migrations. Plain Node, no dependency: it runs before anything else exists.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = path.join(root, 'src', 'db', 'migrations');
const to = path.join(root, 'dist', 'db', 'migrations');

// Emptied first: a migration renamed or removed in the source must not linger in the build.
fs.rmSync(to, { recursive: true, force: true });
fs.mkdirSync(to, { recursive: true });
const files = fs.readdirSync(from).filter((f) => f.endsWith('.sql'));
for (const f of files) fs.copyFileSync(path.join(from, f), path.join(to, f));
console.log(`copied ${files.length} migrations to ${path.relative(root, to)}`);
