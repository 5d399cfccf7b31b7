// The CLI's side of the admin socket: sends one command to a running embedded server.
import net from 'node:net';
import { isResponse, type AdminRequest, type AdminResponse } from './protocol.js';

export interface SendOptions {
  /** How long to wait for the server to accept the connection. */
  connectTimeoutMs?: number;
  /** How long a command may take once sent (a large seed takes a while). */
  responseTimeoutMs?: number;
}

export class AdminConnectionError extends Error {}

/**
 * Sends the request and resolves with the server's answer, or with null when no server listens
 * on the socket (no socket file, or a stale one left by a server that died): then the caller
 * opens the store itself.
 */
export function sendAdminRequest(path: string, req: AdminRequest, opts: SendOptions = {}): Promise<AdminResponse | null> {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5_000;
  const responseTimeoutMs = opts.responseTimeoutMs ?? 15 * 60_000;
  return new Promise((resolve, reject) => {
    const sock = net.createConnection(path);
    let connected = false;
    let settled = false;
    const chunks: Buffer[] = [];
    const finish = (err: Error | null, value: AdminResponse | null = null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    let timer = setTimeout(
      () => finish(new AdminConnectionError(`the server did not accept a connection on ${path} within ${connectTimeoutMs} ms`)),
      connectTimeoutMs,
    );
    sock.on('connect', () => {
      connected = true;
      clearTimeout(timer);
      timer = setTimeout(
        () => finish(new AdminConnectionError(`no answer from the server on ${path} within ${responseTimeoutMs} ms; the command may or may not have been applied`)),
        responseTimeoutMs,
      );
      sock.write(JSON.stringify(req) + '\n');
    });
    sock.on('data', (c: Buffer) => chunks.push(c));
    sock.on('error', (err: NodeJS.ErrnoException) => {
      // Nobody listening: the normal case when no server runs.
      if (!connected && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) return finish(null);
      finish(new AdminConnectionError(`admin socket ${path}: ${err.message}`));
    });
    sock.on('close', () => {
      if (settled) return;
      const text = Buffer.concat(chunks).toString('utf8');
      const nl = text.indexOf('\n');
      let parsed: unknown;
      try {
        parsed = nl >= 0 ? JSON.parse(text.slice(0, nl)) : null;
      } catch {
        parsed = null;
      }
      if (isResponse(parsed)) return finish(null, parsed);
      // The server went away mid-command (killed, crashed): whether it committed is unknown.
      finish(
        new AdminConnectionError(
          `the server on ${path} closed the connection without an answer; the command may or may not have been applied (check with a list or show command)`,
        ),
      );
    });
  });
}
