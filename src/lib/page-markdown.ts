// marked, configured for pages (GFM), with two changes that make the cost of a source predictable
// without changing a single page it converts:
//
//   - Text runs are found in linear time. marked's GFM text rule looks ahead, at every place a run
//     of text may start, for "local-part@" (an e-mail address autolink); over a long stretch of
//     such characters ("*a*a*a…", 400 KB of it) each of the 100,000 text runs scans to the end:
//     quadratic, two minutes of CPU for a page whose HTML is 1.1 MB and which is therefore refused
//     as too large anyway. Here the same rule runs without those look-aheads, and the e-mail stops
//     are found from a table of where each run of local-part characters ends (one pass per string).
//     test/lib/page-markdown.test.ts checks the result against marked's own rule on random input.
//   - A table is sized before it is built: marked pads every body row to the header's columns, so
//     a 1 MB source (100,000 columns, 200,000 one-cell rows) would be 2·10¹⁰ cells. Each cell is at
//     least `<td></td>` in the HTML, so rows × columns × 9 bytes over the page limit is refused
//     (PageTooLargeError) before any cell exists.
//
// Everything else marked does is unchanged; its remaining slow paths are bounded by the
// conversion's CPU budget (page-renderer.ts).
import { Lexer, Marked, Tokenizer, type MarkedOptions, type Token, type Tokens } from 'marked';

/** The source's HTML would be over `limitBytes`: known before it was built. */
export class PageTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageTooLargeError';
  }
}

// marked's GFM text rule, and the same rule without its e-mail look-aheads (whose places are found
// with the table below instead). Derived from marked's own source so that an upgrade that changes
// the rule is noticed: if the pieces are not where expected, marked's rule is used as it is.
const LOCAL = "[a-zA-Z0-9.!#$%&'*+\\/=?_`{\\|}~-]";
const NOT_LOCAL = "[^a-zA-Z0-9.!#$%&'*+\\/=?_`{\\|}~-]";
const MARKED_TEXT = Lexer.rules.inline.gfm.text.source;
const EMAIL_AHEAD = `|(?=${LOCAL}+@)`;
const EMAIL_STOP = `|${NOT_LOCAL}(?=${LOCAL}+@)`;
const HARD_BREAK_STOP = '|[^ ](?= {2,}\\n)';
const LINEAR_TEXT =
  MARKED_TEXT.includes(EMAIL_AHEAD) && MARKED_TEXT.includes(EMAIL_STOP) && MARKED_TEXT.includes(HARD_BREAK_STOP)
    ? new RegExp(MARKED_TEXT.replace(EMAIL_AHEAD, '').replace(EMAIL_STOP, '').replace(HARD_BREAK_STOP, '|([^ ])(?= {2,}\\n)'))
    : null;

const LOCAL_CHAR = new RegExp(LOCAL);
const AT = 64;

/** For each index, where the run of e-mail local-part characters starting there ends. */
function localRunEnds(s: string): Int32Array {
  const ends = new Int32Array(s.length + 1);
  let end = s.length; // ends[i + 1] while at i
  ends[s.length] = end;
  for (let i = s.length - 1; i >= 0; i--) {
    if (!LOCAL_CHAR.test(s.charAt(i))) end = i;
    ends[i] = end;
  }
  return ends;
}

/** The string an inlineTokens call is working through: every `src` its tokenizers see is a suffix of it. */
interface InlineScope {
  s: string;
  ends: Int32Array | null;
}

class PageLexer extends Lexer {
  readonly scopes: InlineScope[] = [];

  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    this.scopes.push({ s: src, ends: null });
    try {
      return super.inlineTokens(src, tokens);
    } finally {
      this.scopes.pop();
    }
  }
}

// Tokenizer overrides (marked calls them with `this` = its tokenizer; returning false means "use
// marked's own").
function linearInlineText(this: Tokenizer, src: string): Tokens.Text | false {
  const scope = (this.lexer as PageLexer).scopes?.at(-1);
  if (!LINEAR_TEXT || !scope || scope.s.length < src.length || !scope.s.endsWith(src.slice(-16))) return false;
  const m = LINEAR_TEXT.exec(src);
  if (!m) return false;
  const s = scope.s;
  const ends = (scope.ends ??= localRunEnds(s));
  const offset = s.length - src.length;
  // "local-part@" starts at i (an index into src).
  const emailAt = (i: number) => {
    const at = offset + i;
    const end = ends[at] ?? at; // at <= s.length: `ends` covers it
    return end > at && s.charCodeAt(end) === AT;
  };
  // Group 1 of marked's text rule is not optional: a match has it.
  const first = m[1]!.length;
  let end: number;
  if (emailAt(first)) {
    end = first;
  } else {
    end = m[0].length;
    // The lazy scan stopped at `stop` (a hard-break stop takes one character more); an e-mail stop
    // earlier (a character that is not local-part, then "local-part@") wins.
    const stop = m[2] !== undefined ? end - 1 : end;
    for (let k = first; k < stop; k++) {
      if (!LOCAL_CHAR.test(src.charAt(k)) && emailAt(k + 1)) {
        end = k + 1;
        break;
      }
    }
  }
  const raw = src.slice(0, end);
  return { type: 'text', raw, text: raw, escaped: this.lexer.state.inRawBlock };
}

const DELIMITER_ROW_START = /^ {0,3}[|:-]/;

function sizedTable(limitBytes: number) {
  return function (this: Tokenizer, src: string): false {
    // marked tries a table at every block; most are not (the second line is no delimiter row),
    // and those are left to marked without running its table rule twice.
    const nl = src.indexOf('\n');
    if (nl < 0 || !DELIMITER_ROW_START.test(src.slice(nl + 1, nl + 8))) return false;
    // marked's table rule: the header row, the delimiter row, then the body rows (may be none).
    const [, header, delimiter, body] = this.rules.block.table.exec(src) ?? [];
    if (header !== undefined && delimiter !== undefined && body) {
      const columns = delimiter.replace(this.rules.other.tableAlignChars, '').split('|').length;
      const rows = body.trim() ? body.replace(this.rules.other.tableRowBlankLine, '').split('\n').length : 0;
      if (rows * columns * '<td></td>'.length > limitBytes) {
        // Only if it is a table at all (header and delimiter agree), decided on those two lines.
        const head = Tokenizer.prototype.table.call(this, `${header}\n${delimiter}\n`);
        if (head) {
          throw new PageTooLargeError(`a table of ${rows} rows of ${head.header.length} columns would be over ${limitBytes} bytes of HTML`);
        }
      }
    }
    return false;
  };
}

/** A GFM Markdown → HTML converter (unsanitised) whose tables are held to `limitBytes`. */
export function pageMarkdown(limitBytes: number): Marked {
  return new Marked({
    gfm: true,
    breaks: false,
    tokenizer: { inlineText: linearInlineText, table: sizedTable(limitBytes) },
    hooks: {
      provideLexer() {
        // Typed as marked's (generic) Lexer.lex; a page's options are marked's string defaults.
        const lex = (src: string, options?: unknown) => new PageLexer(options as MarkedOptions<string, string>).lex(src);
        return lex;
      },
    },
  });
}
