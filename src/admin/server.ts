// The running server's side of the admin socket (embedded store only): the one process that owns
// the data dir runs operator commands for CLI processes that cannot open it. Each command runs to
// its commit before the answer is written, so an answer given stays true after a crash.
import fs from 'node:fs';
import net from 'node:net';
import { MAX_REQUEST_BYTES, checkSocketPath, requestProblem, type AdminRequest, type AdminResponse } from './protocol.js';

export interface AdminServer {
  readonly path: string;
  /** Stops accepting, lets commands in flight finish (and commit), then closes. Removes the socket file. */
  close(): Promise<void>;
}

export interface AdminLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export type AdminHandler = (req: AdminRequest) => Promise<AdminResponse>;

/** A client that connects and sends nothing must not hold a connection open for ever. */
const REQUEST_TIMEOUT_MS = 60_000;

/** Removes a socket file nobody answers on (left by a server that was killed); refuses to touch anything else. */
async function clearStaleSocket(path: string): Promise<void> {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path);
  } catch {
    return; // nothing there
  }
  if (!st.isSocket()) throw new Error(`${path} exists and is not a socket; remove it and start again`);
  // A successful connect alone means a live process serves it.
  const answered = await new Promise<boolean>((resolve) => {
    const s = net.createConnection(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
  if (answered) throw new Error(`another process answers on the admin socket ${path}`);
  fs.rmSync(path, { force: true });
}

export async function startAdminServer(path: string, handler: AdminHandler, log: AdminLog): Promise<AdminServer> {
  checkSocketPath(path);
  await clearStaleSocket(path);

  const inFlight = new Set<Promise<void>>();
  const idle = new Set<net.Socket>();

  const server = net.createServer((sock) => {
    idle.add(sock);
    const chunks: Buffer[] = [];
    let size = 0;
    let started = false;
    sock.setTimeout(REQUEST_TIMEOUT_MS, () => {
      if (!started) sock.destroy();
    });
    const reply = (res: AdminResponse): void => {
      sock.end(JSON.stringify(res) + '\n');
    };
    sock.on('error', () => {}); // a client that goes away mid-answer is its own problem
    sock.on('data', (chunk: Buffer) => {
      if (started) return;
      const nl = chunk.indexOf(0x0a);
      chunks.push(nl >= 0 ? chunk.subarray(0, nl) : chunk);
      size += nl >= 0 ? nl : chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        started = true;
        idle.delete(sock);
        return reply({ code: 2, stdout: '', stderr: 'error: admin request too large\n' });
      }
      if (nl < 0) return;
      started = true;
      idle.delete(sock);
      const work = handle(Buffer.concat(chunks).toString('utf8')).then(reply);
      const tracked: Promise<void> = work.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    });
    sock.on('close', () => idle.delete(sock));
  });

  async function handle(line: string): Promise<AdminResponse> {
    let req: unknown;
    try {
      req = JSON.parse(line);
    } catch {
      return { code: 2, stdout: '', stderr: 'error: the admin request is not JSON\n' };
    }
    const problem = requestProblem(req);
    if (problem) return { code: 2, stdout: '', stderr: `error: ${problem}\n` };
    const r = req as AdminRequest;
    try {
      const res = await handler(r);
      // The command and its outcome, never its output: a created key's value must not reach the log.
      log.info({ command: r.argv.slice(0, 2).join(' '), code: res.code }, 'admin command');
      return res;
    } catch (err) {
      log.warn({ err }, 'admin command failed');
      return { code: 1, stdout: '', stderr: `error: ${err instanceof Error ? err.message : String(err)}\n` };
    }
  }

  // Create the socket owner-only from the start (umask), not just after the chmod below: between
  // listen and chmod another local user could otherwise connect.
  const oldMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(oldMask);
  }
  fs.chmodSync(path, 0o600);

  let closing: Promise<void> | null = null;
  return {
    path,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const s of idle) s.destroy();
        await Promise.allSettled([...inFlight]);
        await closed;
        fs.rmSync(path, { force: true });
      })();
      return closing;
    },
  };
}
