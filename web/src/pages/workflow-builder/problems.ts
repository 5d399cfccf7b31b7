// A refusal of a save, placed where the user looks: the server names the JSON path at fault inside
// the body we sent (`blocks[2].config.prompt`, `edges[3].to`, `name`, `schedule`), so the i-th
// block or edge of that body is the one to outline, and the field is the one to mark in its panel.
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
  if (param === 'blocks' || param === 'edges') {
    // A whole-definition refusal still names its block in the message (`block "x" (agent): …`).
    const named = /block "([^"]+)"/.exec(message)?.[1];
    if (named && sent.blocks.some((x) => x.id === named)) return { message, block: { id: named, field: /config\.([A-Za-z0-9_]+)/.exec(message)?.[1] } };
    // A cycle is spelled a → b → a: its last step is the edge that closes it.
    const [from, to] = /cycle: (.+?) \(/.exec(message)?.[1]?.split(' → ').slice(-2) ?? [];
    if (from && to) return { message, edge: `${from}->${to}` };
  }
  return { message, setting: param || undefined };
}
