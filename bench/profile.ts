// Summarises V8 .cpuprofile files (from --profile): where the server child spent its CPU time,
// by function (self time) and by origin (our src/, each node_modules package, node internals).
// Each profile covers one measured case (bench/server.ts starts and stops it around the window).
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function comes from: "src/http/auth.ts", "pg", "fastify", "node:internal", "(gc)"… */
function origin(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  // `switchboard serve` runs the compiled code: dist/x.js is src/x.ts.
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  const bench = url.indexOf('/bench/');
  return bench >= 0 ? url.slice(bench + 1) : url;
}

const maps = new Map<string, SourceMap | null>();

/**
 * `switchboard serve` runs the bundle (dist/switchboard.js and dist/chunks/*.js): a frame there is
 * mapped back through the bundle's source map (which follows tsc's to src/) to its source file
 * and line, so profiles still name src/http/auth.ts rather than a chunk.
 */
function sourceFrame(f: ProfileNode['callFrame']): { url: string; lineNumber: number } {
  if (!f.url.startsWith('file://') || !f.url.includes('/dist/')) return f;
  const file = fileURLToPath(f.url);
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null; // not bundled (a tsc file such as the page worker's): dist/x.js is src/x.ts
    }
    maps.set(file, map);
  }
  const entry = map?.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  if (!entry?.originalSource) return f;
  return { url: new URL(entry.originalSource, f.url).href, lineNumber: entry.originalLine ?? f.lineNumber };
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  idleMs: number;
  functions: Array<{ name: string; where: string; selfMs: number; pct: number }>;
  origins: Array<{ origin: string; selfMs: number; pct: number }>;
}

export function summariseProfile(file: string, top = 20): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((nd) => [nd.id, nd]));
  const selfUs = new Map<number, number>();
  // timeDeltas[i] is the time before sample i; attributing it to sample i is V8's own convention.
  p.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));

  const fns = new Map<string, { name: string; where: string; us: number }>();
  const origins = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const name = frame.functionName || '(anonymous)';
    const f = name === '(idle)' ? frame : sourceFrame(frame);
    total += us;
    if (name === '(idle)') {
      idle += us;
      continue;
    }
    const where = f.url ? `${origin(f.url, name)}:${f.lineNumber + 1}` : origin(f.url, name);
    const key = `${name} ${where}`;
    const cur = fns.get(key) ?? { name, where, us: 0 };
    cur.us += us;
    fns.set(key, cur);
    const o = origin(f.url, name);
    origins.set(o, (origins.get(o) ?? 0) + us);
  }
  const busy = total - idle || 1;
  const ms = (us: number) => Math.round(us / 100) / 10;
  return {
    file,
    totalMs: ms(total),
    idleMs: ms(idle),
    functions: [...fns.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, selfMs: ms(f.us), pct: Math.round((f.us / busy) * 1000) / 10 })),
    origins: [...origins.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([o, us]) => ({ origin: o, selfMs: ms(us), pct: Math.round((us / busy) * 1000) / 10 })),
  };
}

export function formatSummary(s: ProfileSummary): string {
  const lines = [
    `${path.basename(path.dirname(s.file))}/${path.basename(s.file)}: ${s.totalMs} ms sampled, ${s.idleMs} ms idle; shares below are of the busy time`,
    '  self time by origin:',
    ...s.origins.map((o) => `    ${o.pct.toFixed(1).padStart(5)}%  ${o.selfMs.toFixed(0).padStart(7)} ms  ${o.origin}`),
    '  top functions by self time:',
    ...s.functions.map((f) => `    ${f.pct.toFixed(1).padStart(5)}%  ${f.selfMs.toFixed(0).padStart(7)} ms  ${f.name}  ${f.where}`),
  ];
  return lines.join('\n');
}

export function summariseProfiles(dir: string): string {
  if (!fs.existsSync(dir)) return `no profiles in ${dir}`;
  // `switchboard serve` writes its own (--cpu-prof) into a folder per case.
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.cpuprofile')).sort();
  return files.map((f) => formatSummary(summariseProfile(path.join(dir, f)))).join('\n\n');
}

// `tsx bench/profile.ts FILE_OR_DIR…` summarises profiles on their own.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  for (const arg of process.argv.slice(2)) {
    console.log(fs.statSync(arg).isDirectory() ? summariseProfiles(arg) : formatSummary(summariseProfile(arg, 30)));
  }
}
