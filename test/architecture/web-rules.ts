// The layering of the hub (web/src), checked over the source text like src/'s (source-rules.ts):
// - a page folder (pages/<folder>/) imports its own folder, components/, lib/, data/, @domain/*
//   and the server's schema modules — never another page folder;
// - data/ imports lib/, data/, @domain/* and the schema modules — no React screen, no page;
// - components/ never imports a page;
// - the server is reached only through `import type` from a schemas module (@server/**/schemas),
//   so nothing of the server (nor typebox) reaches the bundle.
// Packages (react, @tanstack/…) are free. Paths are relative to web/src with forward slashes.
import { importSpecifiers, type SourceMap, type Violation } from './source-rules.js';

/** "pages/runs/RunsPage.tsx" + "../../data/runs" → "data/runs"; null for a package or an alias. */
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const seg of spec.split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

/** "pages/runs/x.tsx" → "pages/runs"; "data/runs.ts" → "data"; "main.tsx" → "". */
function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'pages') return parts.length > 2 ? `pages/${parts[1]}` : 'pages';
  return parts.length > 1 ? parts[0] : '';
}

const SERVER_SCHEMAS = /^@server\/(.+\/)?schemas$/;

export function checkWebSources(files: SourceMap): Violation[] {
  const out: Violation[] = [];
  for (const [file, source] of files) {
    const from = areaOf(file);
    for (const { spec, typeOnly } of importSpecifiers(source)) {
      if (spec.startsWith('@server')) {
        if (!SERVER_SCHEMAS.test(spec)) out.push({ rule: 'the server only through its schemas modules', file, detail: spec });
        else if (!typeOnly) out.push({ rule: 'the server\'s schemas as import type only', file, detail: spec });
        continue;
      }
      const target = resolve(file, spec);
      if (target === null) continue; // a package or @domain
      const to = areaOf(target);
      if (from.startsWith('pages/') && to !== from && !['components', 'lib', 'data'].includes(to)) {
        out.push({ rule: 'a page imports its own folder, components, lib and data only', file, detail: target });
      }
      if (from === 'data' && !['data', 'lib'].includes(to)) {
        out.push({ rule: 'data imports lib only', file, detail: target });
      }
      if (from === 'components' && to.startsWith('pages')) {
        out.push({ rule: 'components never import pages', file, detail: target });
      }
    }
  }
  return out;
}
