// Who used the CPU during a measured case: the server child, this process (the load generator),
// the PostgreSQL processes, anything else on the machine, and what was left idle. On a 2-core machine shared by all three this
// says whether a low req/s is the server's own cost or a saturated box. Linux /proc only; on any
// other system the figures are null and the bench runs without them.
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
  postgres: number;
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

function postgresTicks(): number {
  let sum = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') sum += ticks(Number(entry));
    } catch {
      /* exited while we looked */
    }
  }
  return sum;
}

function snapshot(serverPid: number): Snapshot | null {
  if (!fs.existsSync('/proc/stat')) return null;
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return {
    at: performance.now(),
    server: ticks(serverPid),
    loadgen: ticks(process.pid),
    postgres: postgresTicks(),
    idle: cpu[3] + (cpu[4] ?? 0), // idle + iowait
    total: cpu.reduce((a, b) => a + b, 0),
  };
}

/** Starts counting; call the returned function when the case ends. */
export function cpuMeter(serverPid: number): () => CpuSplit | null {
  const start = snapshot(serverPid);
  return () => {
    const end = snapshot(serverPid);
    if (!start || !end) return null;
    const wallMs = end.at - start.at;
    const pct = (d: number) => Math.round(((d * TICK_MS) / wallMs) * 100);
    // Backends that exited during the case lose their ticks; the pool keeps its connections, so
    // in practice none do.
    const server = end.server - start.server;
    const loadgen = end.loadgen - start.loadgen;
    const postgres = end.postgres - start.postgres;
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
