// The admin socket's protocol: one JSON line in, one JSON line out, then the server closes.
//   request  {"argv": ["keys", "list", "--account", "…"], "cwd": "/home/op", "files": {"f.json": {"text": "…"}}}
//   response {"code": 0, "stdout": "…", "stderr": ""}
// `files` carries what the CLI read for the command (seed FILE): the server never reads client paths.
import path from 'node:path';

export const SOCKET_NAME = 'admin.sock';

/** Fixture files can be large; anything past this is not an operator command. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

// sockaddr_un.sun_path holds 108 bytes on Linux (104 on macOS) including the terminating NUL.
const MAX_SOCKET_PATH = 103;

/** The files a command names (seed's FILE, automations edit's FILE), read on the CLI's side. */
export type InputFiles = Record<string, { text: string } | { error: string }>;

/**
 * What an operator command returns (see src/cli/result.ts): declared here, below the CLI, since
 * the socket carries it both ways.
 */
export interface CommandResult {
  /** 0 done, 1 refused or failed, 2 bad usage. */
  code: number;
  stdout: string;
  stderr: string;
}

export interface AdminRequest {
  argv: string[];
  cwd: string;
  files?: InputFiles;
}

export type AdminResponse = CommandResult;

export function socketPath(dataDir: string): string {
  return path.join(dataDir, SOCKET_NAME);
}

export function checkSocketPath(p: string): void {
  if (Buffer.byteLength(p) > MAX_SOCKET_PATH) {
    throw new Error(
      `the admin socket path ${p} is longer than the ${MAX_SOCKET_PATH} bytes a Unix socket allows; ` +
        'use a shorter SWITCHBOARD_DATA_DIR',
    );
  }
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Checks a decoded request's shape; a message saying what is wrong, or null when it is fine. */
export function requestProblem(v: unknown): string | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'the request must be a JSON object';
  const r = v as Record<string, unknown>;
  if (!isStringArray(r.argv) || r.argv.length === 0 || r.argv.length > 200) return 'argv must be a non-empty array of strings';
  if (typeof r.cwd !== 'string') return 'cwd must be a string';
  if (r.files !== undefined) {
    if (!r.files || typeof r.files !== 'object' || Array.isArray(r.files)) return 'files must be an object';
    for (const f of Object.values(r.files as Record<string, unknown>)) {
      const e = f as Record<string, unknown> | null;
      if (!e || typeof e !== 'object' || (typeof e.text !== 'string' && typeof e.error !== 'string')) {
        return 'each file must be {"text": …} or {"error": …}';
      }
    }
  }
  return null;
}

export function isResponse(v: unknown): v is AdminResponse {
  if (!v || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  return Number.isInteger(r.code) && typeof r.stdout === 'string' && typeof r.stderr === 'string';
}
