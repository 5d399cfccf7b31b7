// What an operator command returns. Commands never write to the terminal themselves: they return
// their output as data, so the very same function runs in the CLI process and inside a running
// server (admin socket), and the operator sees identical answers either way.

import type { CommandResult } from '../admin/protocol.js';

export type { CommandResult };

/** Where a command runs: in a CLI process that opened the store, or inside `serve` over the admin socket. */
export interface CommandContext {
  via: 'local' | 'server';
  /**
   * Reads an input file named on the command line (seed). The CLI reads it itself and, through
   * the socket, sends the contents along: a server never reads a client's paths.
   */
  readFile(name: string): Promise<string>;
}

/** Bad arguments: the command answers with the message and its usage, exit code 2. */
export class UsageError extends Error {}

/** A refusal the operator can act on (unknown account, rule broken): message, exit code 1. */
export class CommandError extends Error {}

const line = (s: string): string => (s === '' || s.endsWith('\n') ? s : s + '\n');

export function done(stdout: string, stderr = ''): CommandResult {
  return { code: 0, stdout: line(stdout), stderr: line(stderr) };
}

export function failed(message: string): CommandResult {
  return { code: 1, stdout: '', stderr: line(`error: ${message}`) };
}

export function usageFailed(message: string, usage: string): CommandResult {
  return { code: 2, stdout: '', stderr: line(`error: ${message}`) + '\n' + line(usage) };
}

export function json(value: unknown): string {
  return JSON.stringify(value) + '\n';
}

/** ISO 8601 UTC with milliseconds and `Z`, like the API; null stays null. */
export function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}

/** Columns padded to their widest cell, for human-readable listings. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
  return [fmt(header), ...rows.map(fmt)].join('\n') + '\n';
}
