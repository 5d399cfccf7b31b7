// Who used the CPU during a measured case: the server child, this process (the load generator),
// our PostgreSQL processes, anything else on the machine, and what was left idle. On a 2-core
// machine shared by all of them this says whether a low req/s is the server's own cost or a
// saturated box. Linux /proc only; elsewhere the figures are null and the bench runs without them.
import fs from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on every mainstream Linux build

export interface CpuSplit {
  /** Percent of one core (100 = one core busy for the whole case). */
  serverPct: number;
  loadgenPct: number;
  postgresPct: number;
  /** Everything else on the machine (other people's tests, the kernel's own threads), same unit. */
  otherPct: number;
  /** Percent of the whole machine left idle. */
  idlePct: number;
}

interface Snapshot {
  at: number;
  server: number;
  loadgen: number;
  postgres: Map<number, number>;
  idle: number;
  total: number;
}

/** utime + stime of one process in ticks; 0 if it is gone. */
function ticks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may itself hold spaces).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

/**
 * Ticks of the PostgreSQL processes that work for us, by pid: the server's own processes
 * (checkpointer, WAL writer, …) and the client backends connected to our database. Backends of
 * other databases (someone's test suite) are somebody else's load and stay in "other".
 */
function postgresTicks(database: string | null): Map<number, number> {
  const out = new Map<number, number>();
  if (!database) return out;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      // A client backend's title is "postgres: …: USER DB ADDRESS(PORT) STATE" (or [local]).
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const backend = /\(\d+\)|\[local\]/.test(title);
      if (!backend || title.includes(` ${database} `)) out.set(Number(entry), ticks(Number(entry)));
    } catch {
      /* exited while we looked */
    }
  }
  return out;
}

function snapshot(serverPid: number, database: string | null): Snapshot | null {
  if (!fs.existsSync('/proc/stat')) return null;
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return {
    at: performance.now(),
    server: ticks(serverPid),
    loadgen: ticks(process.pid),
    postgres: postgresTicks(database),
    idle: cpu[3] + (cpu[4] ?? 0), // idle + iowait
    total: cpu.reduce((a, b) => a + b, 0),
  };
}

/**
 * Starts counting; call the returned function when the case ends. `database`: the PostgreSQL
 * database the server uses (null: none, so no PostgreSQL process is ours).
 */
export function cpuMeter(serverPid: number, database: string | null = null): () => CpuSplit | null {
  const start = snapshot(serverPid, database);
  return () => {
    const end = snapshot(serverPid, database);
    if (!start || !end) return null;
    const wallMs = end.at - start.at;
    const pct = (d: number) => Math.round(((d * TICK_MS) / wallMs) * 100);
    const server = end.server - start.server;
    const loadgen = end.loadgen - start.loadgen;
    // Per process, so a backend that exits mid-case cannot make the sum go down (its ticks in the
    // window are lost instead; the pool keeps its connections, so ours do not exit).
    let postgres = 0;
    for (const [pid, t] of end.postgres) postgres += t - (start.postgres.get(pid) ?? 0);
    const busy = end.total - start.total - (end.idle - start.idle);
    return {
      serverPct: pct(server),
      loadgenPct: pct(loadgen),
      postgresPct: pct(postgres),
      otherPct: Math.max(0, pct(busy - server - loadgen - postgres)),
      idlePct: Math.round(((end.idle - start.idle) / Math.max(1, end.total - start.total)) * 100),
    };
  };
}
