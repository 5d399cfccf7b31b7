// What each workflow block kind is and which settings it takes, declared once: the engine's
// blocks validate their configs with these (src/engine/blocks), the save-time validator reports
// the field at fault, and the hub's workflow builder shows the palette and generates each block's
// settings form from the same declarations.
import type { KindSchema } from './config-schema.js';
import { MAX_PAGE_TITLE_LENGTH } from './project.js';
import { BLOCK_KINDS, type BlockKind } from './workflow.js';

export const MAX_SOURCE_TEXT = 100_000;
export const MAX_SOURCE_URL = 2_048;
export const MAX_PROMPT = 50_000;
export const DEFAULT_MAX_TOKENS = 1_024;
export const MAX_MAX_TOKENS = 100_000;
export const MAX_TEMPLATE = 50_000;
export const MAX_APPROVAL_MESSAGE = 1_000;
/** At most this many people an approval block emails when a run starts waiting, in this many characters. */
export const MAX_APPROVAL_NOTIFY = 20;
export const MAX_APPROVAL_NOTIFY_LENGTH = 2_000;

export const BLOCK_SCHEMAS: Readonly<Record<BlockKind, KindSchema>> = {
  'source.text': {
    kind: 'source.text',
    label: 'Text',
    description: 'Starts the run with text you write here.',
    fields: [{ name: 'text', label: 'Text', type: 'text', multiline: true, required: true, maxLength: MAX_SOURCE_TEXT, ask: 'Write the text this block starts the run with' }],
  },
  'source.web': {
    kind: 'source.web',
    label: 'Web page',
    description: 'Fetches a public web page and passes on its visible text.',
    fields: [{ name: 'url', label: 'URL', type: 'url', required: true, maxLength: MAX_SOURCE_URL, help: 'An http(s) address reachable from the server.', ask: 'Enter the address of the web page to fetch' }],
  },
  'source.item': {
    kind: 'source.item',
    label: 'Content item',
    description: "Passes on a content item's text (a page's Markdown, or an item's fields).",
    fields: [{ name: 'item_id', label: 'Content item', type: 'item', required: true, ask: 'Choose the content item this block passes on' }],
  },
  agent: {
    kind: 'agent',
    label: 'AI agent',
    description: 'Asks the language model, over the text of the blocks feeding it. Billed per token.',
    fields: [
      {
        name: 'prompt',
        label: 'Prompt',
        type: 'text',
        multiline: true,
        required: true,
        maxLength: MAX_PROMPT,
        placeholders: 'blocks',
        help: 'Name a feeding block as {{block_id}}; with no placeholder, the inputs follow the prompt.',
        ask: 'Write the prompt for this AI block',
      },
      { name: 'max_tokens', label: 'Max tokens', type: 'integer', required: false, min: 1, max: MAX_MAX_TOKENS, default: DEFAULT_MAX_TOKENS },
    ],
  },
  'transform.template': {
    kind: 'transform.template',
    label: 'Template',
    description: 'Fills a text template with the output of the blocks feeding it.',
    fields: [
      {
        name: 'template',
        label: 'Template',
        type: 'text',
        multiline: true,
        required: true,
        allowEmpty: true,
        maxLength: MAX_TEMPLATE,
        placeholders: 'blocks',
        help: 'Name a feeding block as {{block_id}}.',
      },
    ],
  },
  approval: {
    kind: 'approval',
    label: 'Approval',
    description: 'Waits for a person to approve or reject in the hub before the run goes on.',
    fields: [
      { name: 'message', label: 'Message to the approver', type: 'text', multiline: false, required: true, maxLength: MAX_APPROVAL_MESSAGE, ask: 'Write the message the approver reads' },
      {
        name: 'notify',
        label: 'Email these people when it waits',
        help: "Addresses of people in this account, separated by commas. Empty (or nobody of the account): every owner and admin is emailed. Anyone who may approve can still approve.",
        type: 'text',
        multiline: false,
        required: false,
        allowEmpty: true,
        maxLength: MAX_APPROVAL_NOTIFY_LENGTH,
        emails: { max: MAX_APPROVAL_NOTIFY },
      },
    ],
  },
  'output.project': {
    kind: 'output.project',
    label: 'Save as page',
    description: "Saves the text it receives as a page in the workflow's project.",
    fields: [{ name: 'title', label: 'Page title', type: 'text', multiline: false, required: true, maxLength: MAX_PAGE_TITLE_LENGTH, ask: 'Write a title for the page this block saves' }],
  },
};

/** Every kind has a schema: a kind added to BLOCK_KINDS without one fails here, at load. */
for (const k of BLOCK_KINDS) if (BLOCK_SCHEMAS[k]?.kind !== k) throw new Error(`block kind ${k} has no schema`);
