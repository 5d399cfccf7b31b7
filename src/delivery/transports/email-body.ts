// Email bodies in the outbox are HTML fragments: the send step renders its template with HTML
// escaping (mustache), so "Tom & Jerry" arrives as "Tom &amp; Jerry". SMTP sends them as an HTML
// part and a plain-text alternative. A body without block markup (a template written as plain
// lines) keeps its line breaks; links stay visible in the text part.
const BLOCK = /<(p|br|div|table|ul|ol|li|h[1-6]|html|body|blockquote|pre)\b/i;
const URL_RE = /\bhttps?:\/\/[^\s<>"']+/g;

export function toHtml(body: string): string {
  if (BLOCK.test(body)) return body;
  return body
    .trim()
    .split(/\r?\n\s*\r?\n/)
    // Bare URLs (the unsubscribe line) become links, unless the paragraph has links of its own.
    .map((para) => (/<a\s/i.test(para) ? para : para.replace(URL_RE, (u) => `<a href="${u}">${u}</a>`)))
    .map((para) => `<p>${para.replace(/\r?\n/g, '<br>\n')}</p>`)
    .join('\n');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'", '#x2F': '/', '#x3D': '=', '#x60': '`' };

export function toText(body: string): string {
  return body
    .replace(/<a\b[^>]*href=["']([^"']+)["'][^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, label: string) => (label.includes(href) ? label : `${label} (${href})`))
    .replace(/<br\s*\/?>\s*/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|blockquote|pre)>\s*/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#?[a-z0-9]+);/gi, (m, name: string) => {
      if (ENTITIES[name] !== undefined) return ENTITIES[name];
      const code = /^#x([0-9a-f]+)$/i.exec(name)?.[1] ?? /^#(\d+)$/.exec(name)?.[1];
      if (code === undefined) return m;
      const n = name[1] === 'x' || name[1] === 'X' ? parseInt(code, 16) : Number(code);
      return n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
