// What is wrong with the draft, placed where the user looks. Live: the domain's validator (the one
// the server's save runs, src/domain/workflow-check.ts) over the draft as it is edited, every
// problem at once, each on its block and field, edge or setting. After a save: a refusal the
// browser could not foresee (a project or item no longer in the account), placed by the JSON path
// the server names inside the body we sent (`blocks[2].config.item_id`, `project_id`).
import { definitionProblems } from '@domain/workflow-check';
import { HubError } from '../../lib/api';
import type { Definition } from './model';

export interface Problem {
  message: string;
  /** The message without its `block "x" (kind): ` prefix, for the node and field that already say which block. */
  short: string;
  /** The block at fault (by id in the body sent), and the config field or block key (`id`, `kind`). */
  block?: { id: string; field?: string };
  /** The edge at fault, as `from->to`. */
  edge?: string;
  /** A workflow setting: name, description, project_id, schedule, schedule_timezone. */
  setting?: string;
}

/** Every problem the draft has now, in the order a save meets them. */
export function liveProblems(draft: Definition): Problem[] {
  const out: Problem[] = [];
  if (draft.name.trim() === '') out.push({ message: 'Give the workflow a name', short: 'Give the workflow a name', setting: 'name' });
  for (const p of definitionProblems(draft)) {
    const place = p.block !== undefined && draft.blocks.some((b) => b.id === p.block) ? { block: { id: p.block, field: p.field } } : p.edge ? { edge: p.edge } : { setting: p.path };
    out.push({ message: p.block ? `${p.block}: ${p.message}` : p.message, short: p.message, ...place });
  }
  return out;
}

/** The problems on one block, and those on one of its fields. */
export const onBlock = (problems: readonly Problem[], id: string): Problem[] => problems.filter((p) => p.block?.id === id);
export const onField = (problems: readonly Problem[], field: string): string | undefined =>
  problems
    .filter((p) => p.block?.field === field)
    .map((p) => p.short)
    .join(' ') || undefined;

/** A refused save placed on what it names; null for anything but a definition refusal. */
export function problemOf(err: unknown, sent: Definition): Problem | null {
  if (!(err instanceof HubError) || err.code !== 'invalid_field') return null;
  const p = place(err.message, err.param ?? '', sent);
  return { ...p, short: err.message.replace(/^block "[^"]*"(?: \([^)]*\))?: /, '') };
}

function place(message: string, param: string, sent: Definition): Omit<Problem, 'short'> {
  const b = /^blocks\[(\d+)\](?:\.config\.([A-Za-z0-9_]+)|\.([a-z_]+))?/.exec(param);
  if (b) {
    const block = sent.blocks[Number(b[1])];
    if (block) return { message, block: { id: block.id, field: b[2] ?? (b[3] === 'config' ? undefined : b[3]) } };
  }
  const e = /^edges\[(\d+)\]/.exec(param);
  if (e) {
    const edge = sent.edges[Number(e[1])];
    if (edge) return { message, edge: `${edge.from}->${edge.to}` };
  }
  return { message, setting: param || undefined };
}
