// Templates (Mustache) as the engine renders them and as publishing checks them: one reading of
// what is wrong, in the words the builder shows, and a parse cache that does not grow without end.
import Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { renderHtml, renderPlain, templateProblem, TemplateError } from '../../src/domain/template.js';

describe('templateProblem', () => {
  it.each([
    ['Hi {{first_name', 'has a "{{" that is never closed with "}}"'],
    ['Hi {{{first_name}}', 'has a "{{" that is never closed with "}}"'],
    ['{{#tags}}x', 'opens a section {{#tags}} that is never closed with {{/tags}}'],
    ['{{#a}}{{/b}}', 'opens a section {{#a}} that is never closed with {{/a}}'],
    ['x{{/name}}', 'closes a section {{/name}} that was never opened'],
    ['{{=a=}}', 'changes the {{ }} delimiters to something Mustache cannot use'],
  ])('%j: %s', (template, words) => {
    expect(templateProblem(template)).toBe(words);
  });

  it.each(['', 'plain', 'Hi {{first_name}}', '{{{name}}} & {{#tags}}{{.}}{{/tags}}', '{{^tags}}none{{/tags}}', '{{=<% %>=}}<% name %>', '{{x}}}', '{{! a comment }}'])(
    '%j can be read',
    (template) => {
      expect(templateProblem(template)).toBeNull();
    },
  );
});

describe('renderPlain and renderHtml', () => {
  it('render as before: plain leaves values as written, HTML escapes them', () => {
    const view = { name: 'Tom & Jerry' };
    expect(renderPlain('Hi {{name}}', view)).toBe('Hi Tom & Jerry');
    expect(renderHtml('<p>Hi {{name}}</p>', view)).toBe('<p>Hi Tom &amp; Jerry</p>');
    expect(renderPlain(undefined, view)).toBe('');
  });

  it('throw a TemplateError naming the field for one that cannot be read', () => {
    expect(() => renderPlain('Hi {{name', {}, 'subject')).toThrow(new TemplateError('config.subject has a "{{" that is never closed with "}}"'));
    expect(() => renderHtml('{{#a}}', {})).toThrow(new TemplateError('the template opens a section {{#a}} that is never closed with {{/a}}'));
  });
});

describe('the parse cache', () => {
  it('keeps the most recently used few hundred templates, not every template ever typed', () => {
    for (let i = 0; i < 5_000; i++) templateProblem(`Hello {{name}} #${i}`);
    const cache = Mustache.templateCache as unknown as { map: Map<string, unknown> };
    expect(cache.map.size).toBeLessThanOrEqual(500);
    // The most recent one is still cached; the first is gone.
    expect([...cache.map.keys()].some((k) => k.startsWith('Hello {{name}} #4999'))).toBe(true);
    expect([...cache.map.keys()].some((k) => k.startsWith('Hello {{name}} #0:'))).toBe(false);
  });
});
