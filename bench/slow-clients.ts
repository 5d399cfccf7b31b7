// `npm run bench:slow-clients`: one address opens thousands of slow connections (headers or a
// body trickled, or a body that stops) while a well-behaved client on another address keeps
// calling GET /v1/workflows. Issue 10's acceptance: that client's p99 under 200 ms and no refused
// connection; every slow connection closed by the server within the deadline.
//
// The real server process (`switchboard serve`, as npm start runs it, from source through tsx) on
// a fresh embedded store, with small deadlines set through the env so the run is short. Loopback
// only (the slow clients bind 127.0.0.2, the good client 127.0.0.1); bounded in count and time;
// stops by itself. Options:
//   --connections N   slow connections (default 5000)
//   --cap N           SWITCHBOARD_MAX_CONNECTIONS_PER_ADDRESS for the run (default 256, as shipped:
//                     past 256 open, the slow address's new connections are refused at once;
//                     --cap 10000 takes all of them, so each must be cut by a deadline)
//   --rate N          slow connections opened a second (default 2000)
//   --margin-ms N     slack over the deadline for "closed within the deadline" (default 1000: the
//                     server checks deadlines every 300 ms at these settings). A lifetime is measured
//                     from the client's connect, so it also holds any wait in the kernel's accept
//                     queue: on a loaded machine that wait alone can pass the margin.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REQUEST_TIMEOUT_MS = 3_000;
const BODY_IDLE_TIMEOUT_MS = 2_000;
const TRICKLE_EVERY_MS = 500; // under the body idle timeout: only the request deadline cuts a trickle

const log = (m: string) => process.stderr.write(`${m}\n`);

function args(argv: string[]): { connections: number; cap: number; marginMs: number; rate: number } {
  const o = { connections: 5_000, cap: 256, marginMs: 1_000, rate: 2_000 };
  for (let i = 0; i < argv.length; i++) {
    const v = Number(argv[i + 1]);
    const key = ({ '--connections': 'connections', '--cap': 'cap', '--margin-ms': 'marginMs', '--rate': 'rate' } as const)[argv[i]];
    if (!key || !Number.isInteger(v) || v < 1 || v > 100_000) throw new Error(`usage: npm run bench:slow-clients -- [--connections N] [--cap N] [--rate N] [--margin-ms N]`);
    o[key] = v;
    i++;
  }
  return o;
}

// ---- the server process --------------------------------------------------------------------

interface Server {
  child: ChildProcess;
  port: number;
  /** CPU seconds (user + system) the server process has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
  /** Its log, read once it has stopped. */
  log(): ServerLog;
}

interface ServerLog {
  /** Lines by pino level. */
  levels: Map<number, number>;
  messages: Map<string, number>;
  /** The first lines at error level and above. */
  errors: string[];
  /** Connections the per-address cap refused (the server logs their count). */
  refused: number;
}

function cli(args: string[], env: Record<string, string>, stdio: 'pipe' | number = 'pipe'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/entry.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', stdio, stdio],
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

function readLog(file: string): ServerLog {
  const out: ServerLog = { levels: new Map(), messages: new Map(), errors: [], refused: 0 };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { level: number; msg: string; refused?: number };
    out.refused += entry.refused ?? 0;
    out.levels.set(entry.level, (out.levels.get(entry.level) ?? 0) + 1);
    out.messages.set(entry.msg, (out.messages.get(entry.msg) ?? 0) + 1);
    if (entry.level >= 50 && out.errors.length < 5) out.errors.push(line.slice(0, 400));
  }
  return out;
}

/**
 * `switchboard serve` with its output going to a file, not a pipe: a pipe this (busy) process
 * reads late would block the server's synchronous log writes and be measured as server slowness.
 */
async function startServer(env: Record<string, string>, logFile: string): Promise<Server> {
  const fd = fs.openSync(logFile, 'w');
  const child = cli(['serve'], { HOST: '127.0.0.1', PORT: '0', ...env }, fd);
  fs.closeSync(fd);
  const end = Date.now() + 60_000;
  let port = 0;
  while (!port) {
    if (child.exitCode !== null || Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
    port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(fs.readFileSync(logFile, 'utf8'))?.[1] ?? 0);
  }
  return {
    child,
    port,
    cpuSeconds: () => {
      // /proc/PID/stat fields 14 and 15: utime and stime in clock ticks (100 a second on Linux).
      const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if (!(await exited(child, 20_000))) {
        child.kill('SIGKILL');
        await exited(child, 5_000);
      }
    },
    log: () => readLog(logFile),
  };
}

async function seedKey(env: Record<string, string>, dir: string): Promise<string> {
  const file = path.join(dir, 'fixture.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      accounts: [
        {
          ref: 'good',
          name: 'Well-behaved client',
          tier: 'enterprise',
          limits: { requests_per_minute: 100_000_000 },
          users: [{ ref: 'o', email: 'o@good.example', role: 'owner', name: 'Owner' }],
          keys: [{ ref: 'k', name: 'reader', scopes: ['workflows:read'] }],
          workflows: Array.from({ length: 10 }, (_, i) => ({ ref: `w${i}`, name: `Workflow ${i}` })),
        },
      ],
    }),
  );
  const seed = cli(['seed', file, '--json'], env);
  let out = '';
  seed.stdout!.on('data', (d) => (out += String(d)));
  seed.stderr!.on('data', (d) => (out += String(d)));
  if (!(await exited(seed, 120_000)) || seed.exitCode !== 0) throw new Error(`seed failed: ${out}`);
  return JSON.parse(out).accounts.good.keys.k as string;
}

// ---- the slow connections ------------------------------------------------------------------

type Kind = 'body-trickle' | 'body-stall' | 'header-trickle' | 'unknown-path-trickle';
const KINDS: Kind[] = ['body-trickle', 'body-stall', 'header-trickle', 'unknown-path-trickle'];

interface SlowResult {
  kind: Kind;
  /** From connect to the server closing it (refused by the cap, or cut); null when the bench had to close it. */
  lifetimeMs: number | null;
  connectFailed: boolean;
  answered: boolean;
}

function slowConnection(port: number, kind: Kind, giveUpMs: number): Promise<SlowResult> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    let t0 = 0;
    let timer: NodeJS.Timeout | null = null;
    let answered = false;
    let connected = false;
    let gaveUp = false;
    const head =
      kind === 'unknown-path-trickle'
        ? 'POST /no/such/path HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n'
        : 'POST /hooks/automations/not-a-secret-0123456789 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n'; // under the webhook limit
    const headerLines = ['POST /hooks/automations/x HTTP/1.1\r\n', 'Host: x\r\n', 'Content-Type: application/json\r\n'];
    let step = 0;
    const giveUp = setTimeout(() => {
      gaveUp = true;
      sock.destroy();
    }, giveUpMs);
    sock.on('data', () => (answered = true));
    sock.on('error', () => {});
    sock.on('connect', () => {
      connected = true;
      t0 = performance.now();
      if (kind === 'header-trickle') {
        sock.write(headerLines[0]);
        // Header lines, one every interval, never the blank line that ends them.
        timer = setInterval(() => sock.write(step < 2 ? headerLines[1 + step++] : `X-Pad-${step++}: y\r\n`), TRICKLE_EVERY_MS);
      } else {
        sock.write(head + '{');
        if (kind !== 'body-stall') timer = setInterval(() => sock.write(' '), TRICKLE_EVERY_MS);
      }
    });
    sock.on('close', () => {
      clearTimeout(giveUp);
      if (timer) clearInterval(timer);
      const lifetime = performance.now() - t0;
      resolve({
        kind,
        lifetimeMs: connected && !gaveUp ? lifetime : null,
        connectFailed: !connected,
        answered,
      });
    });
  });
}

/** Opens `n` slow connections, `rate` a second (at 2,000 a second all 5,000 are open at once before the first deadline). */
async function attack(port: number, n: number, rate: number, giveUpMs: number): Promise<{ results: SlowResult[]; peakOpen: number }> {
  const results: Promise<SlowResult>[] = [];
  let open = 0;
  let peakOpen = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    open++;
    peakOpen = Math.max(peakOpen, open);
    const p = slowConnection(port, KINDS[i % KINDS.length], giveUpMs);
    results.push(
      p.then((r) => {
        open--;
        return r;
      }),
    );
  }
  return { results: await Promise.all(results), peakOpen };
}

// ---- the well-behaved client ---------------------------------------------------------------

interface GoodResult {
  latencies: number[];
  failures: Map<string, number>;
}

function getOnce(port: number, key: string): Promise<{ ms: number; outcome: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    // A new connection per request (no keep-alive): a refused connection would show.
    const req = http.get(
      { host: '127.0.0.1', port, localAddress: '127.0.0.1', path: '/v1/workflows?limit=10', agent: false, headers: { authorization: `Bearer ${key}` }, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ ms: performance.now() - t0, outcome: res.statusCode === 200 ? 'ok' : `status ${res.statusCode}` }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ ms: performance.now() - t0, outcome: err.code ?? err.message }));
  });
}

// ---- the run -------------------------------------------------------------------------------

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<number> {
  const o = args(process.argv.slice(2));
  const nofile = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim());
  // Each slow connection is a descriptor here and one in the server (a separate process).
  if (Number.isFinite(nofile) && nofile < o.connections + 500) {
    log(`ulimit -n is ${nofile}: too low for ${o.connections} connections; raise it (ulimit -n ${o.connections + 1000}) or pass --connections`);
    return 2;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-slow-'));
  const env = {
    SWITCHBOARD_DATA_DIR: path.join(dir, 'data'),
    SWITCHBOARD_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    SWITCHBOARD_BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_TIMEOUT_MS),
    SWITCHBOARD_MAX_CONNECTIONS_PER_ADDRESS: String(o.cap),
    LOG_LEVEL: 'info',
  };
  let server: Server | null = null;
  // Whatever happens, the run ends: a watchdog stops everything after 5 minutes.
  const watchdog = setTimeout(() => {
    log('watchdog: the run took over 5 minutes; stopping');
    server?.child.kill('SIGKILL');
    process.exit(3);
  }, 300_000);
  watchdog.unref();
  try {
    server = await startServer(env, path.join(dir, 'server.log'));
    const key = await seedKey(env, dir);
    log(`server on 127.0.0.1:${server.port}; ulimit -n ${nofile}; ${o.connections} slow connections from 127.0.0.2; cap ${o.cap}`);

    // The good client runs alone for 4 s (2 s of warm-up, then the baseline), then through the whole attack.
    let attacking = false;
    let stopGood = false;
    const baseline: number[] = [];
    const during: GoodResult = { latencies: [], failures: new Map() };
    const good = (async () => {
      while (!stopGood) {
        const r = await getOnce(server!.port, key);
        if (r.outcome === 'ok') (attacking ? during.latencies : baseline).push(r.ms);
        else during.failures.set(r.outcome, (during.failures.get(r.outcome) ?? 0) + 1);
      }
    })();
    await new Promise((r) => setTimeout(r, 2_000));
    baseline.length = 0; // the first 2 s warm up the server (JIT, caches): not the baseline
    await new Promise((r) => setTimeout(r, 2_000));
    attacking = true;
    const cpu0 = server.cpuSeconds();
    const load0 = os.loadavg()[0];
    const t0 = performance.now();
    const giveUpMs = REQUEST_TIMEOUT_MS * 3 + 10_000;
    const { results, peakOpen } = await attack(server.port, o.connections, o.rate, giveUpMs);
    const attackMs = performance.now() - t0;
    stopGood = true;
    await good;
    const cpu = server.cpuSeconds() - cpu0;
    const load = os.loadavg()[0];
    await server.stop(); // its last log lines carry the cap's refusal count
    const serverLog = server.log();

    const deadline = REQUEST_TIMEOUT_MS + o.marginMs;
    const closed = results.filter((r) => r.lifetimeMs !== null);
    const lifetimes = closed.map((r) => r.lifetimeMs!).sort((x, y) => x - y);
    const late = closed.filter((r) => r.lifetimeMs! > deadline);
    const notClosed = results.filter((r) => !r.connectFailed && r.lifetimeMs === null);
    const refused = serverLog.refused;
    const connectFailed = results.filter((r) => r.connectFailed).length;
    const lat = during.latencies.sort((x, y) => x - y);
    const base = baseline.sort((x, y) => x - y);
    const goodFailures = [...during.failures].map(([k, v]) => `${k} x${v}`).join(', ') || 'none';

    const lines = [
      `slow connections: ${o.connections} opened from 127.0.0.2 at ${o.rate}/s, in ${(attackMs / 1000).toFixed(1)} s until the last closed; peak open at once ${peakOpen}`,
      `  refused at once by the per-address cap ${refused} (server log), taken and cut by a deadline ${closed.length - refused}, connect failed ${connectFailed}`,
      `  lifetime, client's connect to the server's close (includes any wait for the server to accept): p50 ${fmt(pct(lifetimes, 50))}, p99 ${fmt(pct(lifetimes, 99))}, max ${fmt(lifetimes.at(-1) ?? NaN)}`,
      ...KINDS.map((k) => {
        const l = closed.filter((r) => r.kind === k).map((r) => r.lifetimeMs!).sort((x, y) => x - y);
        return `    ${k.padEnd(22)} n=${String(l.length).padStart(5)}  p50 ${fmt(pct(l, 50))}  max ${fmt(l.at(-1) ?? NaN)}`;
      }),
      `  answered with any byte: ${results.filter((r) => r.answered).length}; still open when the bench gave up (${giveUpMs} ms): ${notClosed.length}`,
      `good client (GET /v1/workflows from 127.0.0.1, a new connection per request):`,
      `  before the attack: ${base.length} requests, p50 ${fmt(pct(base, 50))}, p99 ${fmt(pct(base, 99))}`,
      `  during the attack: ${lat.length} requests, p50 ${fmt(pct(lat, 50))}, p99 ${fmt(pct(lat, 99))}, max ${fmt(lat.at(-1) ?? NaN)}; failures: ${goodFailures}`,
      `server: ${cpu.toFixed(1)} CPU s over the ${(attackMs / 1000).toFixed(1)} s attack; machine load average ${load0.toFixed(1)} at the start, ${load.toFixed(1)} at the end (${os.cpus().length} cores)`,
      `server log: ${[...serverLog.levels].sort().map(([l, n]) => `level ${l} x${n}`).join(', ')}`,
      `  ${['request cut: it missed its deadline', 'client aborted the request', 'connections refused: too many open from one address'].map((m) => `"${m}" x${serverLog.messages.get(m) ?? 0}`).join(', ')}`,
      ...serverLog.errors.map((e) => `  error line: ${e}`),
    ];
    const checks: [string, boolean][] = [
      [`good client p99 under 200 ms (${fmt(pct(lat, 99))})`, pct(lat, 99) < 200],
      [`good client: no refused connection or failure (${goodFailures})`, during.failures.size === 0 && lat.length > 0],
      [`every slow connection closed by the server within the deadline ${REQUEST_TIMEOUT_MS} ms + ${o.marginMs} ms margin (late ${late.length}, never closed ${notClosed.length})`, late.length === 0 && notClosed.length === 0 && connectFailed === 0],
      [`no error-level server log line`, ![...serverLog.levels.keys()].some((l) => l >= 50)],
    ];
    process.stdout.write(lines.join('\n') + '\n' + checks.map(([name, ok]) => `${ok ? 'PASS' : 'FAIL'} ${name}`).join('\n') + '\n');
    return checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    clearTimeout(watchdog);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(String(err instanceof Error ? (err.stack ?? err.message) : err));
    process.exit(1);
  },
);
