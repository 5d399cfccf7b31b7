// Group commit for shared rate-limit counters. Concurrent hits on one key (a client with many
// requests in flight) would each cost the shared store a statement and a round trip; here, while
// one statement for a key is in flight, the hits arriving meanwhile wait and then go as ONE
// statement adding their number ("+ n"). Each hit still gets a count of its own: the statement
// returns the window's count after the batch, and the batch's hits take the n values ending there,
// exactly as if they had been sent one by one in that order. So limits, the RateLimit headers and
// the 429s are what they were; only the number of statements changes. With no concurrency a hit
// goes alone and at once, as before.

/** Adds n hits of `key` in the window starting at `windowStart`; resolves with the window's count after them. */
export type AddHits = (key: string, n: number, windowStart: number) => Promise<number>;

interface Waiting {
  windowStart: number;
  resolve: (count: number) => void;
  reject: (err: unknown) => void;
}

interface KeyState {
  inFlight: boolean;
  waiting: Waiting[];
}

export class HitBatcher {
  private readonly keys = new Map<string, KeyState>();

  constructor(private readonly add: AddHits) {}

  /** Counts one hit; resolves with this hit's own count in its window. */
  hit(key: string, windowStart: number): Promise<number> {
    let state = this.keys.get(key);
    if (!state) {
      state = { inFlight: false, waiting: [] };
      this.keys.set(key, state);
    }
    const s = state;
    return new Promise<number>((resolve, reject) => {
      s.waiting.push({ windowStart, resolve, reject });
      if (!s.inFlight) this.send(key, s);
    });
  }

  /** Keys with a statement in flight or hits waiting (tests; a key's entry goes when it is idle). */
  get activeKeys(): number {
    return this.keys.size;
  }

  private send(key: string, s: KeyState): void {
    const batch = s.waiting;
    if (batch.length === 0) {
      this.keys.delete(key);
      return;
    }
    s.waiting = [];
    s.inFlight = true;
    // A batch straddling a minute boundary counts in the newer window, as a late single hit does.
    let windowStart = -Infinity;
    for (const w of batch) if (w.windowStart > windowStart) windowStart = w.windowStart;
    const n = batch.length;
    this.add(key, n, windowStart).then(
      (count) => {
        for (const [i, w] of batch.entries()) w.resolve(count - n + 1 + i);
      },
      (err) => {
        for (const w of batch) w.reject(err);
      },
    ).finally(() => {
      s.inFlight = false;
      this.send(key, s);
    });
  }
}
