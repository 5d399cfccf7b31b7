// The code cites its design in the repository (docs/architecture.md), never a file outside it:
// no source file names DESIGN.md (or "DESIGN 8"), and every `docs/architecture.md §N` a comment
// cites is a section that exists, with the step it names and the words it quotes in that
// section. The second block plants each kind of violation and checks the checker names it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = 'docs/architecture.md';
const SELF = 'test/architecture/docs-citations.test.ts';
/** Where citations stand: the source trees and the README (each read whole). */
const TREES = ['src', 'web/src', 'test', 'scripts', 'bench'];
const EXTENSIONS = /\.(ts|tsx|mts|mjs|js|sql|css)$/;

interface Section {
  heading: string;
  /** The heading and everything under it up to the next heading of the same or a higher level. */
  text: string;
}

/** "5.1" → its section, from the doc's numbered `##`/`###` headings. */
export function sectionsOf(doc: string): Map<string, Section> {
  const lines = doc.split('\n');
  const heads: { at: number; level: number; number: string; heading: string }[] = [];
  lines.forEach((line, at) => {
    const m = /^(#{2,4}) (\d+(?:\.\d+)*)\.? (.+)$/.exec(line);
    if (m) heads.push({ at, level: m[1].length, number: m[2], heading: m[3].trim() });
  });
  const out = new Map<string, Section>();
  heads.forEach((h, i) => {
    const next = heads.slice(i + 1).find((o) => o.level <= h.level);
    out.set(h.number, { heading: h.heading, text: lines.slice(h.at, next ? next.at : lines.length).join('\n') });
  });
  return out;
}

/** Whitespace, comment prefixes and Markdown emphasis out of the way, for comparing words. */
function plain(text: string): string {
  return text
    .replace(/\n\s*(\/\/|--|\*(?!\/))?/g, ' ')
    .replace(/[`*]/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

export interface CitationProblem {
  file: string;
  detail: string;
}

/** One `§N` after the doc's name, with the step(s) it names and a quotation right after it. */
const CITE = /^[\s,;]*(?:and\s+)?§(\d+(?:\.\d+)*)(?:\s+steps?\s+(\d+)(?:\s+and\s+(\d+))?)?(?::?\s*"([^"]+)")?/;

/** Every problem with the citations in `files` ({ path → text }) against the doc's text. */
export function checkCitations(files: ReadonlyMap<string, string>, doc: string): CitationProblem[] {
  const sections = sectionsOf(doc);
  const problems: CitationProblem[] = [];
  for (const [file, source] of files) {
    for (const m of source.matchAll(/\bDESIGN(\.md)?\b/g)) {
      const line = source.slice(0, m.index).split('\n').length;
      problems.push({ file, detail: `line ${line} cites ${m[0]} (outside the repository): cite ${DOC} §N` });
    }
    for (const m of source.matchAll(/architecture\.md/g)) {
      // Comment prefixes of the following lines out of the way, so a citation may wrap.
      let rest = source.slice(m.index + m[0].length, m.index + m[0].length + 200).replace(/\n\s*(\/\/|--|\*(?!\/))\s?/g, ' ');
      for (let c = CITE.exec(rest); c; c = CITE.exec(rest)) {
        rest = rest.slice(c[0].length);
        const [, number, step, step2, quote] = c;
        const section = sections.get(number);
        if (!section) {
          problems.push({ file, detail: `cites ${DOC} §${number}, which does not exist` });
          continue;
        }
        for (const s of [step, step2]) {
          if (s && !new RegExp(`^${s}\\. `, 'm').test(section.text)) {
            problems.push({ file, detail: `cites step ${s} of §${number} (${section.heading}), which has no such step` });
          }
        }
        if (quote && !plain(section.text).includes(plain(quote))) {
          problems.push({ file, detail: `quotes "${quote}" from §${number} (${section.heading}), which does not say it` });
        }
      }
    }
  }
  return problems;
}

function readTree(dir: string, out: Map<string, string>): void {
  if (!fs.existsSync(path.join(ROOT, dir))) return;
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') readTree(rel, out);
    } else if (EXTENSIONS.test(entry.name) && rel !== SELF) {
      out.set(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
    }
  }
}

describe('the code cites docs/architecture.md, and only sections it has', () => {
  const doc = fs.readFileSync(path.join(ROOT, DOC), 'utf8');
  const files = new Map<string, string>([['README.md', fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')]]);
  for (const tree of TREES) readTree(tree, files);

  it('numbers its sections once each', () => {
    const numbers = [...doc.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]);
    expect(numbers.length).toBeGreaterThan(20);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('reads the trees and finds the citations', () => {
    expect(files.size).toBeGreaterThan(300);
    const cited = [...files.values()].filter((s) => s.includes(`${DOC} §`)).length;
    expect(cited).toBeGreaterThan(40);
  });

  it('has no citation of DESIGN.md and none of a missing section, step or quotation', () => {
    expect(checkCitations(files, doc).map((p) => `${p.file}: ${p.detail}`)).toEqual([]);
  });
});

describe('the checker names each kind of planted violation', () => {
  const doc = [
    '# Title',
    '## 1. Queue',
    'Claims use SKIP LOCKED.',
    '### 1.1 Leases',
    'A lease is renewed.',
    '## 2. Pipeline',
    '1. Request id.',
    '2. Early access.',
  ].join('\n');
  const check = (source: string) => checkCitations(new Map([['src/x.ts', source]]), doc).map((p) => p.detail);

  it('passes good citations, wrapped ones included', () => {
    expect(check('// The claim (docs/architecture.md §1, §1.1: "a lease is renewed").')).toEqual([]);
    expect(check('// The pipeline (docs/architecture.md\n// §2 steps 1 and 2).\n/** docs/architecture.md §1 "Queue" */')).toEqual([]);
    expect(check('// docs/architecture.md, section by section.')).toEqual([]);
  });

  const cases: [string, string, RegExp][] = [
    ['a citation of DESIGN.md', '// The queue (DESIGN.md 8).', /cites DESIGN\.md/],
    ['a citation of DESIGN by number', '// The queue (DESIGN 8).', /cites DESIGN \(outside/],
    ['a missing section', '// The queue (docs/architecture.md §3).', /§3, which does not exist/],
    ['a missing subsection after a good one', '// (docs/architecture.md §1, §1.2)', /§1\.2, which does not exist/],
    ['a missing step', '// (docs/architecture.md §2 step 3)', /step 3 of §2/],
    ['a quotation the section does not hold', '// (docs/architecture.md §1.1: "a lease never ends")', /does not say it/],
    ['a heading that is another section’s', '// (docs/architecture.md §1.1 "Pipeline")', /does not say it/],
  ];
  for (const [name, source, detail] of cases) {
    it(`finds ${name}`, () => {
      const found = check(source);
      expect(found.length).toBe(1);
      expect(found[0]).toMatch(detail);
    });
  }
});
