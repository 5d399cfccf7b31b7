// src/lib/page.ts: Markdown and HTML become {text, html}; every HTML is sanitised with the
// allow-list (attack payloads never survive, safe content does); the plain-text rendition; the
// conversion deadline; the size measure.
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import {
  htmlToText,
  MAX_PAGE_BYTES,
  pageBytes,
  PageRenderError,
  renderPage,
  sanitizePageHtml,
  storedPageHtml,
} from '../../src/lib/page.js';

const ALLOWED_TAGS = new Set(
  'h1 h2 h3 h4 h5 h6 p div blockquote pre hr br ul ol li dl dt dd table caption thead tbody tfoot tr th td figure figcaption a img strong b em i u s del ins code kbd samp sub sup mark small abbr span'.split(
    ' ',
  ),
);
const ALLOWED_ATTRS: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  th: ['align', 'colspan', 'rowspan'],
  td: ['align', 'colspan', 'rowspan'],
  ol: ['start'],
  abbr: ['title'],
  code: ['class'],
};

/**
 * Parses the output and checks every element and attribute against the policy: a payload that
 * survived as markup would show up here as a tag or an attribute.
 */
function problemsOf(html: string): string[] {
  const problems: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (!ALLOWED_TAGS.has(name)) problems.push(`tag ${name}`);
        for (const [k, v] of Object.entries(attribs)) {
          if (!(ALLOWED_ATTRS[name] ?? []).includes(k)) problems.push(`${name}[${k}]`);
          // (Text may mention javascript: harmlessly: it is escaped. Attribute values may not.)
          if (/javascript:|vbscript:|data:/i.test(v.replace(/[\x00-\x20]/g, ''))) problems.push(`${name}[${k}]=${v}`);
          if (k === 'href' && /^[a-z][a-z0-9+.-]*:/i.test(v.replace(/[\x00-\x20]/g, '')) && !/^(https?|mailto):/i.test(v)) problems.push(`href ${v}`);
          if (k === 'src' && !/^(https?:)?\/\//i.test(v) && /^[a-z][a-z0-9+.-]*:/i.test(v)) problems.push(`src ${v}`);
          if (k === 'class' && !/^language-[\w-]+$/.test(v)) problems.push(`class ${v}`);
          if (k === 'rel' && v !== 'noopener noreferrer nofollow') problems.push(`rel ${v}`);
        }
        if (name === 'a' && attribs.rel !== 'noopener noreferrer nofollow') problems.push('a without rel');
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return problems;
}
const expectSafe = (html: string) => expect(problemsOf(html), html).toEqual([]);

const HTML_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<iframe src="https://evil.example/"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<img src=x onerror=alert(1)>',
  '<img src="https://ok.example/a.png" onload="alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="&#x6A;&#x61;vascript&#58;alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href=" \njavascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<style>body { background: url("javascript:alert(1)") }</style>',
  '<object data="https://evil.example/x.swf"></object>',
  '<embed src="https://evil.example/x.swf">',
  '<form action="https://evil.example/"><input name="a" value="b"><button>Go</button></form>',
  '<img src="data:image/png;base64,iVBORw0KGgo=">',
  '<img src="javascript:alert(1)">',
  '<img src="https://ok.example/a.png" srcset="javascript:alert(1) 2x">',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<p style="background:url(javascript:alert(1))" onclick="alert(1)">p</p>',
  '<div onmouseover="alert(1)">d</div>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<!--<img src=x onerror=alert(1)>-->',
  '<a href="https://ok.example/" target="_blank" rel="opener">x</a>',
  '<code class="evil">x</code>',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
];

const MARKDOWN_PAYLOADS = [
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x][1]\n\n[1]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '![x](data:image/png;base64,iVBORw0KGgo=)',
  '![x](javascript:alert(1))',
  '<script>alert(1)</script>',
  'Hello <img src=x onerror=alert(1)> world',
  '<iframe src="https://evil.example/"></iframe>',
  '<a href="javascript:alert(1)">raw</a>',
  '* list <svg onload=alert(1)>',
  '> quote <style>p{}</style><form><input></form>',
  '```html\n<script>alert(1)</script>\n```',
];

describe('sanitising', () => {
  it.each(HTML_PAYLOADS)('HTML payload %s does not survive', (payload) => {
    expectSafe(renderPage({ html: payload }).html);
  });

  it.each(MARKDOWN_PAYLOADS)('Markdown payload %s does not survive', (payload) => {
    expectSafe(renderPage({ markdown: payload }).html);
  });

  it('the checker flags every payload that is not sanitised (so the checks above can fail)', () => {
    for (const payload of HTML_PAYLOADS.filter((p) => !p.startsWith('<!--'))) expect(problemsOf(payload), payload).not.toEqual([]);
  });

  it('drops the content of script-like elements and keeps the text of other dropped tags', () => {
    expect(sanitizePageHtml('<p>a<script>alert(1)</script>b</p>')).toBe('<p>ab</p>');
    expect(sanitizePageHtml('<xmp><b>x</b></xmp><p>after</p>')).toBe('<p>after</p>');
    expect(sanitizePageHtml('<form><label>Name</label><input></form>')).toBe('Name');
    expect(sanitizePageHtml('<img src=x onerror=alert(1)>')).toBe('<img src="x" />');
    expect(sanitizePageHtml('<p><img src="data:image/png;base64,AA" alt="a">t</p>')).toBe('<p>t</p>');
    expect(sanitizePageHtml('<a href="javascript:alert(1)" onclick="x">x</a>')).toBe('<a rel="noopener noreferrer nofollow">x</a>');
  });

  it('code inside Markdown is shown as text, escaped', () => {
    expect(renderPage({ markdown: '```html\n<script>alert(1)</script>\n```' }).html).toBe(
      '<pre><code class="language-html">&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n',
    );
  });
});

describe('safe content survives', () => {
  it('Markdown: headings, emphasis, lists, tables, code, quotes, links and images', () => {
    const md = [
      '# Title',
      '## Sub',
      'Some *em*, **strong**, ~~gone~~ and `code`.',
      '- one\n- two\n\n3. three\n4. four',
      '| a | b |\n|:--|--:|\n| 1 | 2 |',
      '```js\nconst x = 1 < 2;\n```',
      '> quoted',
      '[web](https://a.example/x?y=1&z=2) [plain](http://b.example) [mail](mailto:ann@example.com) [rel](/docs/page) [anchor](#top)',
      '![logo](https://img.example/logo.png "Logo")',
      '---',
    ].join('\n\n');
    const { html, text } = renderPage({ markdown: md });
    expect(text).toBe(md);
    expectSafe(html);
    for (const part of [
      '<h1>Title</h1>',
      '<h2>Sub</h2>',
      '<em>em</em>',
      '<strong>strong</strong>',
      '<del>gone</del>',
      '<code>code</code>',
      '<ul>\n<li>one</li>\n<li>two</li>\n</ul>',
      '<ol start="3">\n<li>three</li>',
      '<th align="left">a</th>',
      '<td align="right">2</td>',
      '<pre><code class="language-js">const x = 1 &lt; 2;\n</code></pre>',
      '<blockquote>\n<p>quoted</p>\n</blockquote>',
      '<a href="https://a.example/x?y=1&amp;z=2" rel="noopener noreferrer nofollow">web</a>',
      '<a href="http://b.example" rel="noopener noreferrer nofollow">plain</a>',
      '<a href="mailto:ann@example.com" rel="noopener noreferrer nofollow">mail</a>',
      '<a href="/docs/page" rel="noopener noreferrer nofollow">rel</a>',
      '<a href="#top" rel="noopener noreferrer nofollow">anchor</a>',
      '<img src="https://img.example/logo.png" alt="logo" title="Logo" />',
      '<hr />',
    ]) {
      expect(html).toContain(part);
    }
  });

  it('HTML: allowed tags and attributes are kept as given', () => {
    const html =
      '<h2>T</h2><p>A <strong>b</strong> <em>c</em> <a href="https://x.example/" title="X">x</a></p>' +
      '<table><caption>Cap</caption><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>' +
      '<dl><dt>term</dt><dd>def</dd></dl><p><abbr title="HyperText">HTML</abbr> <sub>2</sub><sup>3</sup> <mark>m</mark> <kbd>k</kbd></p>';
    expect(sanitizePageHtml(html)).toBe(html.replace('title="X">', 'title="X" rel="noopener noreferrer nofollow">'));
  });
});

describe('the plain-text rendition of HTML', () => {
  it('block elements become line breaks, entities are decoded, whitespace collapses', () => {
    const { text } = renderPage({
      html:
        '<h1>Fish &amp; chips</h1>\n<p>Crisp   and\n   <em>hot</em>,&nbsp;served &lt;daily&gt; &#x27;til&#39; late.</p>' +
        '<p>Line one<br>Line two</p><div>Block</div><blockquote><p>Quote</p></blockquote>' +
        '<script>alert("no")</script><style>p{}</style>',
    });
    expect(text).toBe("Fish & chips\n\nCrisp and hot,\u00a0served <daily> 'til' late.\n\nLine one\nLine two\n\nBlock\n\nQuote");
  });

  it('lists get markers, table cells tabs, preformatted text keeps its spacing', () => {
    const { text } = renderPage({
      html:
        '<ul><li>one</li><li><p>two</p><ul><li>nested</li></ul></li></ul><ol start="3"><li>three</li><li>four</li></ol>' +
        '<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>' +
        '<pre><code>if (x) {\n  y();\n}</code></pre><p>an <img src="https://i.example/a.png" alt="image"> inline</p>',
    });
    expect(text).toBe('- one\n- two\n  - nested\n\n3. three\n4. four\n\na\tb\n1\t2\n\nif (x) {\n  y();\n}\n\nan image inline');
  });

  it('is built from the sanitised HTML: nothing dropped by the sanitiser shows in the text', () => {
    const page = renderPage({ html: '<p>Hi<script>steal()</script></p><iframe>frame text</iframe><xmp>raw</xmp>' });
    expect(page).toEqual({ text: 'Hi', html: '<p>Hi</p>' });
    expect(htmlToText('')).toBe('');
  });

  it('a page from Markdown keeps its Markdown as text', () => {
    expect(renderPage({ markdown: '# A\n\n*b*\n' })).toEqual({ text: '# A\n\n*b*\n', html: '<h1>A</h1>\n<p><em>b</em></p>\n' });
    expect(renderPage({ markdown: '' })).toEqual({ text: '', html: '' });
  });
});

describe('the conversion deadline', () => {
  it('a source that takes too long → PageRenderError timeout; the converter works afterwards', () => {
    const started = Date.now();
    const err = (() => {
      try {
        renderPage({ markdown: '[a]('.repeat(4000) }, { timeoutMs: 200 });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(PageRenderError);
    expect((err as PageRenderError).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(renderPage({ markdown: '*ok*' }).html).toBe('<p><em>ok</em></p>\n');
  });

  it('a source nested too deeply → PageRenderError failed', () => {
    // A deadline a loaded machine cannot reach first: this is about the depth, not the time.
    const opts = { timeoutMs: 120_000 };
    expect(() => renderPage({ markdown: '> '.repeat(20_000) + 'x' }, opts)).toThrow(PageRenderError);
    try {
      renderPage({ markdown: '> '.repeat(20_000) + 'x' }, opts);
    } catch (e) {
      expect((e as PageRenderError).reason).toBe('failed');
    }
  });
});

describe('sizes and stored pages', () => {
  it('the limit is 512 KiB, counted in UTF-8 bytes of the html', () => {
    expect(MAX_PAGE_BYTES).toBe(524_288);
    expect(pageBytes({ text: '', html: '<p>é€😀</p>' })).toBe(7 + 2 + 3 + 4);
  });

  it('storedPageHtml: the stored html as is; none stored → rendered from the Markdown; unconvertible → preformatted text', () => {
    expect(storedPageHtml('# A', '<p>kept</p>')).toBe('<p>kept</p>');
    expect(storedPageHtml('# A <script>x</script>', null)).toBe('<h1>A </h1>\n');
    const deep = '> '.repeat(20_000) + '<b>&"';
    const html = storedPageHtml(deep, null);
    expect(html.startsWith('<pre>&gt; &gt; ')).toBe(true);
    expect(html.endsWith('&lt;b&gt;&amp;&quot;</pre>')).toBe(true);
  });
});
