// Pages: the one place Markdown or HTML becomes what the store keeps, `{text, html}`.
//   - Markdown → HTML with marked (GFM); raw HTML inside the Markdown passes through marked and
//     is then sanitised like any other HTML.
//   - Every HTML, converted or given, goes through sanitize-html with the explicit allow-list
//     below; anything not listed is dropped (the content of script-like elements with it).
//   - A page created from HTML gets as `text` a plain-text rendition of the sanitised HTML.
// Used by the content API (POST /projects/{id}/items) and the engine's output.project block, so
// every page in the store has sanitised html.
//
// marked's inline parser is super-linear on some inputs (16 KB of "[a](" takes minutes; deeply
// nested quotes overflow the stack), and it runs on the event loop. So a conversion runs under a
// deadline: vm's watchdog interrupts synchronous code, also library code called from the script.
import { createRequire } from 'node:module';
import vm from 'node:vm';
import type { Parser as HtmlParser } from 'htmlparser2';
import type sanitizeHtmlFn from 'sanitize-html';
import { pageMarkdown, PageTooLargeError } from './page-markdown.js';

/**
 * sanitize-html and its parser are a hundred modules (postcss, entities, htmlparser2…) that a
 * server loads at every start but needs only when it converts or reads a page: loaded on first
 * use instead (bench 14: about a tenth of the start-up module loading). Both are CommonJS, so a
 * synchronous require keeps every function here synchronous; htmlparser2 is the same copy that
 * sanitize-html uses.
 */
const requireLib = createRequire(import.meta.url);
let htmlLibs: { sanitizeHtml: typeof sanitizeHtmlFn; Parser: typeof HtmlParser; options: sanitizeHtmlFn.IOptions } | null = null;
/** The libraries, loaded on first call; page workers call it at start so no conversion pays for it. */
export function htmlLibraries() {
  if (!htmlLibs) {
    const sanitizeHtml = requireLib('sanitize-html') as typeof sanitizeHtmlFn;
    htmlLibs = {
      sanitizeHtml,
      Parser: (requireLib('htmlparser2') as { Parser: typeof HtmlParser }).Parser,
      options: { ...SANITIZE, transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: LINK_REL }, true) } },
    };
  }
  return htmlLibs;
}

/** Largest page, in UTF-8 bytes of its HTML after conversion and sanitising (512 KiB). */
export const MAX_PAGE_BYTES = 512 * 1024;

/**
 * Longest a conversion may take: CPU time of the converting thread where it can be measured (see
 * page-renderer.ts), so the answer does not depend on how busy the machine is; a legitimate page at
 * the size limit takes well under a second.
 */
export const PAGE_RENDER_TIMEOUT_MS = 3000;

export type PageSource = { markdown: string } | { html: string };

export interface RenderedPage {
  /** The Markdown as given, or the plain-text rendition of a page given as HTML. */
  text: string;
  /** Sanitised HTML. */
  html: string;
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const BLOCK_TAGS = [
  ...HEADINGS, 'p', 'div', 'blockquote', 'pre', 'hr', 'br', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'figure', 'figcaption',
];
const INLINE_TAGS = [
  'a', 'img', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'code', 'kbd', 'samp', 'sub', 'sup',
  'mark', 'small', 'abbr', 'span',
];
const ALIGN = { name: 'align', multiple: false, values: ['left', 'center', 'right'] };
const ALLOWED_ATTRIBUTES: Record<string, sanitizeHtmlFn.AllowedAttribute[]> = {
  // rel is listed so that the value we set survives; a caller's own rel is overwritten.
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  th: [ALIGN, 'colspan', 'rowspan'],
  td: [ALIGN, 'colspan', 'rowspan'],
  ol: ['start'],
  abbr: ['title'],
};
const LINK_SCHEMES = ['http', 'https', 'mailto'];
const IMAGE_SCHEMES = ['http', 'https'];
const LINK_REL = 'noopener noreferrer nofollow';
// Elements whose content is dropped with them. sanitize-html's default list misses xmp, whose
// raw content it would otherwise copy out unescaped (`<xmp><img onerror=…></xmp>`).
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'textarea', 'xmp', 'title', 'option', 'select', 'noscript', 'noembed',
  'noframes', 'iframe', 'object', 'embed', 'applet', 'svg', 'math', 'template', 'head',
];

// transformTags (every link gets rel) is added when sanitize-html is loaded: see htmlLibraries().
const SANITIZE: sanitizeHtmlFn.IOptions = {
  allowedTags: [...BLOCK_TAGS, ...INLINE_TAGS],
  allowedAttributes: ALLOWED_ATTRIBUTES,
  // Fenced code keeps its language hint (marked writes class="language-js"); no other class.
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: { img: IMAGE_SCHEMES },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  // //host/path only ever resolves to http or https.
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  parseStyleAttributes: false,
  // An image whose src was refused (data:, javascript:, …) is dropped rather than left empty.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/** The allow-list in words, for the API documentation (built from the lists above, so it cannot drift). */
export const PAGE_HTML_POLICY =
  `HTML is sanitised with an allow-list. Tags kept: ${[...BLOCK_TAGS, ...INLINE_TAGS].join(', ')}. ` +
  'Attributes kept: ' +
  Object.entries(ALLOWED_ATTRIBUTES)
    .map(([tag, attrs]) => `${tag} (${attrs.map((a) => (typeof a === 'string' ? a : a.name)).join(', ')})`)
    .join('; ') +
  '; code (class language-* only). ' +
  `Links may use ${LINK_SCHEMES.join(', ')} or relative URLs, images ${IMAGE_SCHEMES.join(', ')} only; ` +
  `every link gets rel="${LINK_REL}". Everything else is removed: any other tag (scripts, styles, frames, ` +
  'objects, embeds, SVG, MathML and form controls with their content; other tags leave their text), ' +
  'event-handler (on*), style, class and any other attribute, and javascript:, data:, vbscript: or any other ' +
  'URL scheme (an image left without a source is dropped).';

const marked = pageMarkdown(MAX_PAGE_BYTES);

export function sanitizePageHtml(html: string): string {
  const libs = htmlLibraries();
  return libs.sanitizeHtml(html, libs.options);
}

/** The source could not be converted: it took longer than the deadline, or a library gave up on it. */
export class PageRenderError extends Error {
  constructor(
    /** too_large: the HTML would be far past the limit (a table sized before it was built, or a conversion that outgrew its memory); busy: the owner has too many conversions waiting. */
    readonly reason: 'timeout' | 'failed' | 'too_large' | 'busy',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PageRenderError';
  }
}

const sandbox = vm.createContext({ task: null as (() => unknown) | null });
const runTask = new vm.Script('task()');

function withinDeadline<T>(timeoutMs: number, fn: () => T): T {
  sandbox.task = fn;
  try {
    return runTask.runInContext(sandbox, { timeout: timeoutMs }) as T;
  } catch (err) {
    if (err instanceof PageTooLargeError) throw new PageRenderError('too_large', err.message, { cause: err });
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new PageRenderError('timeout', `conversion took longer than ${timeoutMs} ms`, { cause: err });
    }
    // Anything thrown while converting (a stack overflow on deep nesting, a parser's own error) is
    // about this source: it cannot be made into a page.
    throw new PageRenderError('failed', 'conversion failed (the source is nested too deeply or malformed)', { cause: err });
  } finally {
    sandbox.task = null;
  }
}

/** Markdown or HTML → `{text, html}`; throws PageRenderError when the source cannot be converted in time. */
export function renderPage(source: PageSource, opts: { timeoutMs?: number } = {}): RenderedPage {
  // Loaded (once) before the deadline starts: loading is not the conversion's time.
  htmlLibraries();
  return withinDeadline(opts.timeoutMs ?? PAGE_RENDER_TIMEOUT_MS, () => {
    if ('markdown' in source) {
      return { text: source.markdown, html: sanitizePageHtml(marked.parse(source.markdown, { async: false })) };
    }
    const html = sanitizePageHtml(source.html);
    return { text: htmlToText(html), html };
  });
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * The html of a stored page. Pages stored without one (the fixture loader writes Markdown only)
 * are converted on read; one whose Markdown cannot be converted is shown as preformatted text.
 */
export function storedPageHtml(text: string, html: string | null): string {
  if (html !== null) return html;
  try {
    return renderPage({ markdown: text }).html;
  } catch (err) {
    if (!(err instanceof PageRenderError)) throw err;
    return `<pre>${text.replace(/[&<>"]/g, (c) => ESCAPES[c] ?? c)}</pre>`;
  }
}

/** Size of a page as the limit counts it: UTF-8 bytes of its HTML. */
export function pageBytes(page: RenderedPage): number {
  return Buffer.byteLength(page.html, 'utf8');
}

// Plain text: paragraph-like elements are separated by a blank line (a line break inside a list),
// lines within them (list items, table rows, <br>) by a line break; list items get "- " or "1. ", table cells a tab;
// whitespace collapses except inside <pre>; entities are decoded by the parser.
const PARAGRAPHS = new Set([...HEADINGS, 'p', 'div', 'blockquote', 'pre', 'hr', 'ul', 'ol', 'dl', 'table', 'figure']);
const LINES = new Set(['li', 'dt', 'dd', 'tr', 'caption', 'figcaption', 'br', 'thead', 'tbody', 'tfoot']);
const HTML_SPACE = /[ \t\n\f\r]+/g;

export function htmlToText(html: string): string {
  // Built as chunks, with the state of its end kept aside: re-reading a growing string on every
  // write would make a large page quadratic.
  const chunks: string[] = [];
  let trailingNewlines = 0;
  let endsWithSpace = true; // nothing written yet: no space needed before the first word
  let pendingBreak = 0;
  let pendingSpace = false;
  let marker = '';
  let pre = 0;
  let cellInRow = 0;
  const lists: Array<{ ordered: boolean; n: number }> = [];

  const write = (s: string) => {
    if (s === '') return;
    chunks.push(s);
    let k = s.length;
    while (k > 0 && s.charCodeAt(k - 1) === 10) k--;
    const m = s.length - k;
    trailingNewlines = m === s.length ? trailingNewlines + m : m;
    endsWithSpace = /\s$/.test(s);
  };
  const breakAt = (n: number) => {
    pendingBreak = Math.max(pendingBreak, n);
    pendingSpace = false;
  };
  const emit = (s: string) => {
    if (chunks.length > 0 && pendingBreak > trailingNewlines) write('\n'.repeat(pendingBreak - trailingNewlines));
    else if (chunks.length > 0 && pendingBreak === 0 && pendingSpace && !endsWithSpace && !/^\s/.test(s)) write(' ');
    // A list item's marker waits for the item's first text, so that a paragraph inside the item
    // does not separate the two.
    write(marker + s);
    marker = '';
    pendingBreak = 0;
    pendingSpace = false;
  };
  const isList = (name: string) => name === 'ul' || name === 'ol';

  const parser = new (htmlLibraries().Parser)(
    {
      onopentag(name, attribs) {
        // Inside a list, paragraphs (and nested lists) are lines of their item, not separate blocks.
        if (PARAGRAPHS.has(name)) breakAt(lists.length > 0 ? 1 : 2);
        else if (LINES.has(name)) breakAt(1);
        if (name === 'pre') pre++;
        if (isList(name)) lists.push({ ordered: name === 'ol', n: Number.parseInt(attribs.start ?? '', 10) || 1 });
        if (name === 'li') {
          const list = lists[lists.length - 1];
          marker = '  '.repeat(Math.max(0, lists.length - 1)) + (list?.ordered ? `${list.n++}. ` : '- ');
        }
        if (name === 'tr') cellInRow = 0;
        if ((name === 'td' || name === 'th') && cellInRow++ > 0) emit('\t');
        if (name === 'img' && attribs.alt?.trim()) emit(attribs.alt.replace(HTML_SPACE, ' ').trim());
      },
      ontext(data) {
        if (pre > 0) return emit(data);
        const s = data.replace(HTML_SPACE, ' ');
        const core = s.trim();
        if (s.startsWith(' ')) pendingSpace = pendingBreak === 0;
        if (core === '') return;
        emit(core);
        if (s.endsWith(' ')) pendingSpace = true;
      },
      onclosetag(name) {
        if (name === 'pre') pre--;
        if (isList(name)) lists.pop();
        if (PARAGRAPHS.has(name)) breakAt(lists.length > 0 ? 1 : 2);
        else if (LINES.has(name) && name !== 'br') breakAt(1);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return chunks.join('').trimEnd();
}
