// Message templates (Mustache, docs/architecture.md §3): `{{first_name}}` over a contact's fields
// and earlier steps' outputs. Declared once: the rendering the engine's steps and the builder's
// preview use, and the check that publishing, fixtures and the CLI apply, so a template that cannot
// be read is refused with its field named before any run meets it (a run that does meet one,
// published through an older release or written into the store directly, fails at that step at
// once: a TemplateError is a PermanentFailure, never retried).
import Mustache from 'mustache';
import { PermanentFailure } from '../lib/retry.js';

export class TemplateError extends PermanentFailure {
  constructor(what: string) {
    super(what);
    this.name = 'TemplateError';
  }
}

/**
 * Mustache keeps every template it parsed, in a plain object, for the life of the process: with
 * templates that people type (a draft is checked on every save), that grows without end. This one
 * keeps the most recently used few hundred.
 */
class RecentTemplates {
  private readonly map = new Map<string, unknown>();
  constructor(private readonly max: number) {}
  get(key: string): unknown {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: unknown): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
  clear(): void {
    this.map.clear();
  }
}
Mustache.templateCache = new RecentTemplates(500) as unknown as typeof Mustache.templateCache;

// Mustache's own messages, in the words the builder shows; positions are 0-based offsets.
const READINGS: ReadonlyArray<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^Unclosed tag at (\d+)$/, () => 'has a "{{" that is never closed with "}}"'],
  [/^Unclosed section "(.*)" at (\d+)$/, (m) => `opens a section {{#${m[1]}}} that is never closed with {{/${m[1]}}}`],
  [/^Unopened section "(.*)" at (\d+)$/, (m) => `closes a section {{/${m[1]}}} that was never opened`],
  [/^Invalid tags: /, () => 'changes the {{ }} delimiters to something Mustache cannot use'],
];

function reading(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  for (const [re, say] of READINGS) {
    const m = re.exec(raw);
    if (m) return say(m);
  }
  return `cannot be read (${raw})`;
}

/** Why `template` cannot be rendered (a phrase to follow the field's name), or null when it can. */
export function templateProblem(template: string): string | null {
  try {
    Mustache.parse(template);
    return null;
  } catch (err) {
    return reading(err);
  }
}

function render(template: unknown, view: Record<string, unknown>, field: string | undefined, options?: { escape: (v: unknown) => string }): string {
  const text = String(template ?? '');
  try {
    return Mustache.render(text, view, {}, options);
  } catch (err) {
    throw new TemplateError(`${field === undefined ? 'the template' : `config.${field}`} ${reading(err)}`);
  }
}

/**
 * HTML-escaped rendering, for email bodies. A template that cannot be read throws TemplateError,
 * its message naming `config.<field>` when given.
 */
export function renderHtml(template: unknown, view: Record<string, unknown>, field?: string): string {
  return render(template, view, field);
}

const PLAIN = { escape: (v: unknown) => String(v) };

/** Unescaped rendering, for subjects, texts and plain values ("Tom & Jerry" stays as written). Throws TemplateError. */
export function renderPlain(template: unknown, view: Record<string, unknown>, field?: string): string {
  return render(template, view, field, PLAIN);
}
