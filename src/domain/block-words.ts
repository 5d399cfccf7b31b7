// Workflow blocks in words for people, one mapping for every screen that names a block (the run
// page's steps, the workflow page's blocks): what the block does ("Save as page"), with its id
// kept as a detail, and its settings as labelled values taken from the block's declared fields
// (block-schemas.ts) instead of raw config keys. Pure: the web imports it as @domain/block-words.
import { BLOCK_SCHEMAS } from './block-schemas.js';
import type { BlockKind } from './workflow.js';

/** What each kind of block does, as a step of a run reads. */
const BLOCK_NAMES: Readonly<Record<BlockKind, string>> = {
  'source.text': 'Start with text',
  'source.web': 'Fetch a web page',
  'source.item': 'Read a content item',
  agent: 'Write with AI',
  'transform.template': 'Fill in a template',
  approval: 'Wait for approval',
  'output.project': 'Save as page',
};

const isKind = (kind: string): kind is BlockKind => Object.hasOwn(BLOCK_NAMES, kind);

/** "Save as page" for output.project; a kind this release does not know reads as itself. */
export function blockName(kind: string): string {
  return isKind(kind) ? BLOCK_NAMES[kind] : kind;
}

/** One setting as a person reads it: its label, its value in words, and whether it is long text. */
export interface SettingInWords {
  label: string;
  value: string;
  /** Multi-line text (a prompt, a template): shown as a block of text, not inline. */
  long: boolean;
}

function valueInWords(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return v.toLocaleString('en-US');
  if (v === null || v === undefined) return '';
  return JSON.stringify(v);
}

/**
 * A block's settings in the order its kind declares them, labelled as the builder labels them;
 * an integer left unset shows its default. Keys the kind does not declare are left out (the
 * engine ignores them too); a kind this release does not know shows its raw keys.
 */
export function settingsInWords(kind: string, config: Record<string, unknown>): SettingInWords[] {
  if (!isKind(kind)) return Object.entries(config).map(([k, v]) => ({ label: k, value: valueInWords(v), long: false }));
  const out: SettingInWords[] = [];
  for (const f of BLOCK_SCHEMAS[kind].fields) {
    const v = config[f.name];
    if (v === undefined || v === null || v === '') {
      if (f.type === 'integer' && f.default !== undefined) out.push({ label: f.label, value: `${valueInWords(f.default)} (the default)`, long: false });
      continue;
    }
    out.push({ label: f.label, value: valueInWords(v), long: f.type === 'text' && f.multiline });
  }
  return out;
}
