// Command-line flags of `npm run bench`. Kept tiny and strict: an unknown flag is an error, so a
// typo never silently runs the default (and slow) configuration.

/** Case ids for --only; the bare-Fastify baseline always runs, every ratio needs it. */
const CASES = ['floor', 'get', 'list-small', 'list-large', 'get-pgcounter', 'get-redis', 'get-app'];

export type StoreChoice = 'pglite' | 'postgres' | 'both';

export interface BenchArgs {
  /** Seconds measured per case. */
  durationS: number;
  /** Seconds of discarded load before each measured case (JIT, caches, hint bits, pool fill). */
  warmupS: number;
  connections: number;
  store: StoreChoice;
  /** Workflows in the "small" and "large" accounts. */
  small: number;
  large: number;
  /**
   * Profile each server child's main thread over each measured window (bench/results/profiles/).
   * Sampling slows the server a little, so a profiled run's figures are for reading the profile.
   */
  profile: boolean;
  /** Only the listed case ids (e.g. "get,list-large"); empty = all. */
  only: string[];
  /** SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS for the serve processes (null: the default). */
  rateLimitTimeoutMs: number | null;
}

export const USAGE = `Usage: npm run bench -- [--quick] [--duration N] [--warmup N] [--store pglite|postgres|both]
                          [--connections N] [--large N] [--profile] [--only case,case]
                          [--rate-limit-timeout-ms N]
  --quick        3 s per case after a 1 s warm-up
  --duration N   seconds measured per case (default 10)
  --store        which store(s) to measure (default both)
  --profile      CPU-profile the server (bench/results/profiles/): the app children over the measured
                 window, each switchboard serve (one process per case then) over its whole life
  --only LIST    only these cases: floor, get, list-small, list-large, get-pgcounter, get-redis, get-app
                 (bare always runs)
  --rate-limit-timeout-ms N  the shared rate counters' deadline (SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS) in
                 the serve processes; their answer times and fallbacks are read from the serve log
  BENCH_DATABASE_URL  PostgreSQL admin URL (default postgres://postgres@127.0.0.1:5432/postgres)`;

function positiveInt(flag: string, raw: string | undefined, max: number): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new Error(`${flag} needs a whole number between 1 and ${max}\n${USAGE}`);
  }
  return Number(raw);
}

export function parseArgs(argv: readonly string[]): BenchArgs {
  const a: BenchArgs = {
    durationS: 10,
    warmupS: 2,
    connections: 50,
    store: 'both',
    small: 1_000,
    large: 100_000,
    profile: false,
    only: [],
    rateLimitTimeoutMs: null,
  };
  let durationGiven = false;
  let warmupGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case '--quick':
        if (!durationGiven) a.durationS = 3;
        if (!warmupGiven) a.warmupS = 1;
        break;
      case '--duration':
        a.durationS = positiveInt(flag, argv[++i], 600);
        durationGiven = true;
        break;
      case '--warmup':
        a.warmupS = positiveInt(flag, argv[++i], 60);
        warmupGiven = true;
        break;
      case '--connections':
        a.connections = positiveInt(flag, argv[++i], 1_000);
        break;
      case '--large':
        a.large = positiveInt(flag, argv[++i], 1_000_000);
        break;
      case '--store': {
        const v = argv[++i];
        if (v !== 'pglite' && v !== 'postgres' && v !== 'both') throw new Error(`--store must be pglite, postgres or both\n${USAGE}`);
        a.store = v;
        break;
      }
      case '--profile':
        a.profile = true;
        break;
      case '--only':
        a.only = (argv[++i] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        for (const c of a.only) {
          if (!CASES.includes(c)) throw new Error(`--only: unknown case ${JSON.stringify(c)} (cases: ${CASES.join(', ')})`);
        }
        break;
      case '--rate-limit-timeout-ms':
        a.rateLimitTimeoutMs = positiveInt(flag, argv[++i], 60_000);
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${JSON.stringify(flag)}\n${USAGE}`);
    }
  }
  return a;
}
