// A small seeded PRNG for the fuzzer (sfc32: fast, 128-bit state, good enough for test input),
// so a failing run is replayed exactly by its seed: FUZZ_SEED=<n> reruns the same choices.

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: number) {
    // splitmix32 spreads one 32-bit seed over the four words of state.
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** [0, 1) */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[this.int(0, xs.length - 1)];
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(xs: ReadonlyArray<readonly [number, T]>): T {
    const total = xs.reduce((n, [w]) => n + w, 0);
    let r = this.float() * total;
    for (const [w, v] of xs) {
      r -= w;
      if (r < 0) return v;
    }
    return xs[xs.length - 1][1];
  }

  hex(n: number): string {
    let s = '';
    while (s.length < n) s += this.u32().toString(16).padStart(8, '0');
    return s.slice(0, n);
  }

  /** A well-formed v4-looking UUID that names nothing. */
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  word(min = 3, max = 10): string {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    let s = '';
    const n = this.int(min, max);
    for (let i = 0; i < n; i++) s += letters[this.int(0, 25)];
    return s;
  }
}

/**
 * The seed of a fuzz file: FUZZ_SEED when set (a number, or `random` for a fresh one), else the
 * file's fixed default so CI sends the same requests every run.
 */
export function fuzzSeed(fileDefault: number): number {
  const v = process.env.FUZZ_SEED;
  if (v === undefined || v === '') return fileDefault >>> 0;
  if (v === 'random') return Math.floor(Math.random() * 2 ** 32) >>> 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`FUZZ_SEED must be a non-negative integer or "random", not ${v}`);
  return n >>> 0;
}

/** How many requests a fuzz file sends: FUZZ_REQUESTS when set, else the file's default. */
export function fuzzCount(fileDefault: number): number {
  const v = process.env.FUZZ_REQUESTS;
  if (v === undefined || v === '') return fileDefault;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`FUZZ_REQUESTS must be a positive integer, not ${v}`);
  return n;
}
