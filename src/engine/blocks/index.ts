// The block kinds of docs/architecture.md §10.3 and the workflow-definition checks. The executor
// looks blocks up by kind here; fixtures and the hub call validateWorkflow before saving a
// definition.
//
// A block's execute() answers failed/limit/awaiting for expected outcomes and throws only on
// infrastructure faults (a database error): the executor records a throw as a failed step.
import { loadConfig, type Config } from '../../config.js';
import type { Block, BlockDef, EdgeDef } from '../types.js';
import { agent } from './agent.js';
import { approval, transformTemplate } from './flow.js';
import { outputProject } from './output-project.js';
import { sourceItem, sourceText, sourceWeb } from './sources.js';
import { workflowProblem as problemWith, topologicalOrder, type WorkflowProblem } from './workflow.js';

export { topologicalOrder, type WorkflowProblem };
export { LIMIT_MESSAGES, agentPrompt, tokenMicros, DEFAULT_MAX_TOKENS } from './agent.js';
export { renderTemplate, placeholders, htmlToText } from './text.js';

/**
 * Blocks by kind. `config` supplies the settings some blocks need (source.web's timeout and size
 * cap, the LLM price); it defaults to the built-in defaults, which is all validation needs.
 */
export function createBlockRegistry(config: Pick<Config, 'engine' | 'llm'> = loadConfig({})): Map<string, Block> {
  const blocks: Block[] = [
    sourceText,
    sourceWeb({ webTimeoutMs: config.engine.webTimeoutMs, webMaxBytes: config.engine.webMaxBytes }),
    sourceItem,
    agent({ microsPer1kTokens: config.llm.microsPer1kTokens }),
    transformTemplate,
    approval,
    outputProject,
  ];
  return new Map(blocks.map((b) => [b.kind, b]));
}

// Validation never depends on settings, so one registry with the defaults serves every caller.
let defaultRegistry: Map<string, Block> | null = null;

/**
 * null when the definition is acceptable; else a message naming the block or edge at fault:
 * unknown kinds, bad ids, duplicate ids, invalid configs, dangling or duplicate edges, cycles,
 * and `{{id}}` placeholders naming a block that does not feed the block using them.
 */
export function validateWorkflow(blocks: BlockDef[], edges: EdgeDef[]): string | null {
  return workflowProblem(blocks, edges)?.message ?? null;
}

/** validateWorkflow with the path of the fault inside the definition (`blocks[2].config.prompt`). */
export function workflowProblem(blocks: BlockDef[], edges: EdgeDef[]): WorkflowProblem | null {
  defaultRegistry ??= createBlockRegistry();
  return problemWith(blocks, edges, defaultRegistry);
}
