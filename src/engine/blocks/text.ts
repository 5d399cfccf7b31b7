// Small text helpers the blocks share: the `{{block_id}}` renderer, config field checks, and a
// linear-time HTML-to-text pass for source.web. No eval, no regex that can backtrack badly on a
// hostile page (bodies are up to webMaxBytes).
import { BLOCK_PLACEHOLDER_RE as PLACEHOLDER_RE } from '../../domain/workflow.js';
import type { BlockOutput } from '../types.js';

// The block id rule is declared in the domain, where the hub's builder checks ids with it too.
export { BLOCK_ID_RE } from '../../domain/workflow.js';

/** The block ids a template names, in order of first use. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER_RE)].map((m) => m[1]!))]; // group 1 is required
}

/**
 * Replaces each `{{id}}` with the text of input `id`, in one pass: text coming from an input is
 * never itself scanned for placeholders. A name with no such input renders as '' (workflow
 * validation refuses those, so this only matters for hand-built contexts).
 */
export function renderTemplate(template: string, inputs: Record<string, BlockOutput>): string {
  return template.replace(PLACEHOLDER_RE, (_m, id: string) =>
    Object.prototype.hasOwnProperty.call(inputs, id) ? String(inputs[id]?.text ?? '') : '',
  );
}

/** All inputs' texts, in edge order, separated by a blank line (for blocks that take "the input"). */
export function joinedInput(inputs: Record<string, BlockOutput>): string {
  return Object.values(inputs)
    .map((o) => String(o.text ?? ''))
    .filter((t) => t !== '')
    .join('\n\n');
}

// ---- config checks: each returns null or a message naming the field ----

export function onlyFields(config: Record<string, unknown>, allowed: readonly string[]): string | null {
  for (const k of Object.keys(config)) {
    if (!allowed.includes(k)) return `config.${k} is not a known field (fields: ${allowed.join(', ')})`;
  }
  return null;
}

export function checkString(
  config: Record<string, unknown>,
  key: string,
  rule: { maxLength: number; allowEmpty?: boolean },
): string | null {
  const v = config[key];
  if (typeof v !== 'string') return `config.${key} must be a string`;
  if (!rule.allowEmpty && v.trim() === '') return `config.${key} must not be empty`;
  if (v.length > rule.maxLength) return `config.${key} must be at most ${rule.maxLength} characters`;
  return null;
}

// ---- HTML to text ----

const SKIP_CONTENT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
const BREAKS = new Set([
  'br', 'p', 'div', 'li', 'ul', 'ol', 'tr', 'table', 'section', 'article', 'header', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr', 'title', 'main', 'nav',
]);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function looksLikeHtml(body: string): boolean {
  return /^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(body.slice(0, 1024));
}

function decodeEntities(s: string): string {
  return s.replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** Visible text of an HTML page: tags dropped, scripts and styles skipped, blocks on new lines. */
export function htmlToText(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt);
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt);
    if (gt < 0) break; // an unterminated tag: the rest is not text
    const name = /^<\/?\s*([a-zA-Z][a-zA-Z0-9]*)/.exec(html.slice(lt, Math.min(gt + 1, lt + 40)))?.[1]?.toLowerCase();
    i = gt + 1;
    if (!name) continue;
    if (html[lt + 1] !== '/' && SKIP_CONTENT.has(name) && html[gt - 1] !== '/') {
      const close = lower.indexOf(`</${name}`, i);
      if (close < 0) break;
      const closeEnd = html.indexOf('>', close);
      i = closeEnd < 0 ? html.length : closeEnd + 1;
      continue;
    }
    if (BREAKS.has(name)) out += '\n';
  }
  return decodeEntities(out)
    .split('\n')
    .map((l) => l.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
