// Blocks in words (src/domain/block-words.ts): names for every kind, settings labelled and in
// their declared order, defaults said, undeclared keys left out, unknown kinds shown as they are.
import { describe, expect, it } from 'vitest';
import { blockName, settingsInWords } from '../../src/domain/block-words.js';
import { BLOCK_KINDS } from '../../src/domain/workflow.js';

describe('blockName', () => {
  it('names every kind in words, never as its id', () => {
    for (const k of BLOCK_KINDS) {
      expect(blockName(k)).not.toBe(k);
      expect(blockName(k)).toMatch(/^[A-Z][a-z]/);
    }
    expect(blockName('output.project')).toBe('Save as page');
    expect(blockName('agent')).toBe('Write with AI');
    expect(blockName('approval')).toBe('Wait for approval');
    expect(blockName('source.web')).toBe('Fetch a web page');
  });

  it('reads an unknown kind as itself (a definition from a newer release), and is not fooled by Object keys', () => {
    expect(blockName('source.rss')).toBe('source.rss');
    expect(blockName('toString')).toBe('toString');
  });
});

describe('settingsInWords', () => {
  it('labels an AI block\'s settings, the prompt as long text, the token limit with its default', () => {
    expect(settingsInWords('agent', { prompt: 'Summarise {{src}}' })).toEqual([
      { label: 'Prompt', value: 'Summarise {{src}}', long: true },
      { label: 'Max tokens', value: '1,024 (the default)', long: false },
    ]);
    expect(settingsInWords('agent', { max_tokens: 2000, prompt: 'P' }).map((s) => s.label)).toEqual(['Prompt', 'Max tokens']);
  });

  it('leaves out keys the kind does not declare; shows an unknown kind\'s raw keys', () => {
    expect(settingsInWords('output.project', { title: 'Weekly', colour: 'red' })).toEqual([{ label: 'Page title', value: 'Weekly', long: false }]);
    expect(settingsInWords('source.rss', { feed: 'x', n: 2 })).toEqual([
      { label: 'feed', value: 'x', long: false },
      { label: 'n', value: '2', long: false },
    ]);
  });
});
