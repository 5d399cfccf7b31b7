// The shared input rules on their own (no database): text kinds, the email rule and its
// normalised form, duplicate JSON keys, malformed query encodings and JSON charsets.
import { describe, expect, it } from 'vitest';
import { foreignCharset } from '../../src/http/error-handler.js';
import { malformedQueryPart } from '../../src/http/query.js';
import { checkEmail, normaliseEmail } from '../../src/lib/email.js';
import { duplicateKeyPath } from '../../src/lib/json.js';
import { MULTI_LINE_TEXT, SINGLE_LINE_TEXT, textProblem, UNSTORABLE_TEXT } from '../../src/lib/text.js';

describe('text kinds', () => {
  it('single-line refuses every C0 and C1 control, DEL and the Unicode line separators', () => {
    for (const c of ['\u0001', '\t', '\n', '\r', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\u2028', '\u2029']) {
      expect(textProblem(`a${c}b`, 'single-line'), JSON.stringify(c)).toBe(SINGLE_LINE_TEXT);
    }
  });
  it('multi-line keeps tab, LF and CR and refuses the other controls', () => {
    expect(textProblem('a\tb\r\nc', 'multi-line')).toBeNull();
    for (const c of ['\u0001', '\u000b', '\u000c', '\u001b', '\u007f', '\u0085', '\u009f']) {
      expect(textProblem(`a${c}b`, 'multi-line'), JSON.stringify(c)).toBe(MULTI_LINE_TEXT);
    }
  });
  it('unstorable text is named as such under either kind', () => {
    expect(textProblem('a\u0000', 'single-line')).toBe(UNSTORABLE_TEXT);
    expect(textProblem('a\ud800', 'multi-line')).toBe(UNSTORABLE_TEXT);
  });
  it('ordinary text, bidi names and emoji are fine', () => {
    for (const s of ['Zoë 🎉', 'שרה', '日本', 'a\u00a0b']) expect(textProblem(s, 'single-line')).toBeNull();
  });
});

describe('email', () => {
  it.each(['ann@example.org', "O'Brien+news@example.co.uk", 'zoë@bücher.example', 'x@xn--bcher-kva.example', 'a.b-c_d@sub-1.example'])('accepts %s', (e) => {
    expect(checkEmail(e).ok).toBe(true);
  });
  it.each([
    'ＡＮＮ@example.org',
    'ann\u202e@example.org',
    'ann@exa\u200bmple.org',
    'e\u0301@example.org',
    'a b@example.org',
    'a@b@example.org',
    '.a@example.org',
    'a.@example.org',
    'a@b',
    'a@-b.org',
    'a@b.123',
    `${'x'.repeat(65)}@example.org`,
    `a@${'x'.repeat(64)}.org`,
  ])('refuses %j', (e) => {
    expect(checkEmail(e).ok).toBe(false);
  });
  it('normalises case, blanks and the IDN domain to one form (the same form checkEmail gives)', () => {
    expect(normaliseEmail(' Ann@Example.ORG ')).toBe('ann@example.org');
    expect(normaliseEmail('X@xn--bcher-kva.example')).toBe('x@bücher.example');
    expect(normaliseEmail('X@BÜCHER.example')).toBe('x@bücher.example');
    const c = checkEmail('Zoë@XN--BCHER-KVA.example');
    expect(c.ok && c.normalized).toBe(normaliseEmail('Zoë@XN--BCHER-KVA.example'));
    // Total: any string has a form (the list filter takes any text).
    expect(normaliseEmail('not an address')).toBe('not an address');
  });
});

describe('duplicate JSON keys', () => {
  it('finds them at any depth, decoded, with the path to them', () => {
    expect(duplicateKeyPath('{"a":1,"a":2}')).toEqual(['a']);
    expect(duplicateKeyPath('{"a":1,"\\u0061":2}')).toEqual(['a']);
    expect(duplicateKeyPath('{"x":[0,{"k":1,"k":2}]}')).toEqual(['x', 1, 'k']);
    expect(duplicateKeyPath('[{"a":1},{"b":{"c":"\\"}","c":2}}]')).toEqual([1, 'b', 'c']);
  });
  it('equal keys in different objects and key-like text inside strings are not duplicates', () => {
    expect(duplicateKeyPath('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toBeNull();
    expect(duplicateKeyPath('{"s":"{\\"a\\":1,\\"a\\":2}"}')).toBeNull();
  });
});

describe('malformed query encodings', () => {
  it('names the parameter whose value does not decode, or none when the name does not', () => {
    expect(malformedQueryPart('/x?q=%E0%A4%A')).toEqual({ param: 'q' });
    expect(malformedQueryPart('/x?a=1&b=%FF')).toEqual({ param: 'b' });
    expect(malformedQueryPart('/x?my+name=%ZZ')).toEqual({ param: 'my name' });
    expect(malformedQueryPart('/x?%E0=1')).toEqual({});
  });
  it('well-formed queries pass', () => {
    for (const u of ['/x', '/x?', '/x?q=100%25', '/x?q=Zo%C3%AB&a', '/x?a=b+c']) expect(malformedQueryPart(u)).toBeNull();
  });
});

describe('JSON charset', () => {
  it('UTF-8 in any spelling, quoted or not, or no charset, is fine', () => {
    for (const ct of ['application/json', 'application/json; charset=utf-8', 'application/json;CHARSET="UTF8"', 'application/json; foo=bar']) {
      expect(foreignCharset(ct)).toBeNull();
    }
  });
  it('any other charset is named', () => {
    expect(foreignCharset('application/json; charset=latin1')).toBe('"latin1"');
    expect(foreignCharset('application/json; charset="utf-16"')).toBe('"utf-16"');
    expect(foreignCharset('application/json; charset=utf-8; charset=latin1')).toBe('"latin1"');
  });
});
