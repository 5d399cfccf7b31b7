// CI step: builds the app on a throwaway in-memory store, takes the generated OpenAPI document and
// validates it with a real OpenAPI 3.1 validator. Writes it to dist/openapi.json for inspection.
import fs from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { configWith } from '../src/config.js';
import { openPglite } from '../src/db/pglite.js';
import { migrate } from '../src/db/migrate.js';
import { createApp } from '../src/server.js';

const db = await openPglite({ dataDir: null });
await migrate(db);
const app = await createApp(configWith({ rateLimitStore: 'memory' }), db);
const doc = app.swagger() as Record<string, unknown>;
await app.close();
await db.close();

fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/openapi.json', JSON.stringify(doc, null, 2));
const result = await validate(structuredClone(doc) as never);
if (!result.valid) {
  console.error(compileErrors(result));
  process.exit(1);
}
const paths = Object.keys((doc.paths ?? {}) as object);
console.log(`openapi: valid OpenAPI ${String(doc.openapi)} document, ${paths.length} paths (${paths.join(', ')})`);
