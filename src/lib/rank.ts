// Ranks that order a backlog without renumbering (issue 27): a key between any two neighbours, so
// a move writes one row. A key is an integer part then a fraction, in base-62 digits that sort as
// ASCII (0-9 < A-Z < a-z; the column is collate "C", so PostgreSQL sorts them as JavaScript does).
// The integer part's head letter says how many digits follow: 'a'..'z' 1..26 digits upward from
// zero ('a0'), 'Z'..'A' 1..26 digits downward. Appending (or prepending) steps the integer, so a
// backlog of n items appended one by one has keys of O(log n) characters; only repeated inserts
// into one gap lengthen the fraction, by one digit per ~6 halvings of that gap.

export const RANK_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE = RANK_DIGITS.length;
const ZERO = RANK_DIGITS[0]!;
const TOP = RANK_DIGITS[BASE - 1]!;
/** The one integer nothing can precede: it is kept free so every key has room before it. */
const SMALLEST = `A${ZERO.repeat(26)}`;

const digit = (c: string) => RANK_DIGITS.indexOf(c);

/** How many characters the integer part starting with `head` has (head included); 0 when not a head. */
function integerLength(head: string): number {
  if (head >= 'a' && head <= 'z') return head.charCodeAt(0) - 'a'.charCodeAt(0) + 2;
  if (head >= 'A' && head <= 'Z') return 'Z'.charCodeAt(0) - head.charCodeAt(0) + 2;
  return 0;
}

/** Whether `key` is a rank this module could have made. */
export function isRank(key: string): boolean {
  const n = integerLength(key[0] ?? '');
  if (n === 0 || key.length < n || key === SMALLEST) return false;
  if ([...key.slice(1)].some((c) => digit(c) < 0)) return false;
  return !key.slice(n).endsWith(ZERO);
}

function parts(key: string): [string, string] {
  if (!isRank(key)) throw new Error(`not a rank: ${JSON.stringify(key)}`);
  const n = integerLength(key[0]!);
  return [key.slice(0, n), key.slice(n)];
}

/** The next integer part; null past the largest ('z' and 26 top digits). */
function increment(int: string): string | null {
  const head = int[0]!;
  const digs = [...int.slice(1)];
  let i = digs.length - 1;
  for (; i >= 0 && digs[i] === TOP; i--) digs[i] = ZERO;
  if (i >= 0) {
    digs[i] = RANK_DIGITS[digit(digs[i]!) + 1]!;
    return head + digs.join('');
  }
  // Every digit rolled over: the next head, one digit longer upward, one shorter below zero.
  if (head === 'Z') return `a${ZERO}`;
  if (head === 'z') return null;
  const next = String.fromCharCode(head.charCodeAt(0) + 1);
  if (next > 'a') digs.push(ZERO);
  else digs.pop();
  return next + digs.join('');
}

/** The previous integer part; null below the smallest. */
function decrement(int: string): string | null {
  const head = int[0]!;
  const digs = [...int.slice(1)];
  let i = digs.length - 1;
  for (; i >= 0 && digs[i] === ZERO; i--) digs[i] = TOP;
  if (i >= 0) {
    digs[i] = RANK_DIGITS[digit(digs[i]!) - 1]!;
    return head + digs.join('');
  }
  if (head === 'a') return `Z${TOP}`;
  if (head === 'A') return null;
  const prev = String.fromCharCode(head.charCodeAt(0) - 1);
  if (prev < 'Z') digs.push(TOP);
  else digs.pop();
  return prev + digs.join('');
}

/**
 * A fraction strictly between `lo` and `hi` (null: above every fraction); '' is the least. Neither
 * ends in the zero digit, and neither does the answer, so there is always room below it too.
 */
function fractionBetween(lo: string, hi: string | null): string {
  if (hi !== null) {
    // Shared leading digits (lo padded with zeros) stay; the gap is decided after them.
    let n = 0;
    while (n < hi.length && (lo[n] ?? ZERO) === hi[n]) n++;
    if (n > 0) return hi.slice(0, n) + fractionBetween(lo.slice(n), hi.slice(n));
  }
  const a = lo === '' ? 0 : digit(lo[0]!);
  const b = hi === null ? BASE : digit(hi[0]!);
  if (b - a > 1) return RANK_DIGITS[Math.round((a + b) / 2)]!;
  // Adjacent first digits: hi's first digit alone is below hi when hi goes on; else go one deeper.
  if (hi !== null && hi.length > 1) return hi[0]!;
  return RANK_DIGITS[a]! + fractionBetween(lo.slice(1), null);
}

/** `n` ranks in ascending order from the start, each after the one before (a list ranked as it stands). */
export function ranksInOrder(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rankBetween(out.at(-1) ?? null, null));
  return out;
}

/**
 * A rank that sorts strictly between `before` and `after` (null: no neighbour on that side).
 * Throws when the neighbours are not ranks or not in order: the caller read them in rank order.
 */
export function rankBetween(before: string | null, after: string | null): string {
  if (before !== null && after !== null && before >= after) throw new Error(`ranks out of order: ${before} >= ${after}`);
  if (before === null && after === null) return `a${ZERO}`;
  if (before === null) {
    const [int, frac] = parts(after!);
    // Below the smallest integer only fractions remain; an integer with a fraction has itself below.
    if (int === SMALLEST) return int + fractionBetween('', frac);
    if (frac !== '') return int;
    const prev = decrement(int)!; // int is above the smallest, so it has a predecessor
    return prev === SMALLEST ? prev + fractionBetween('', null) : prev;
  }
  const [intA, fracA] = parts(before);
  if (after === null) return increment(intA) ?? intA + fractionBetween(fracA, null);
  const [intB, fracB] = parts(after);
  if (intA === intB) return intA + fractionBetween(fracA, fracB);
  const next = increment(intA);
  return next !== null && next < after ? next : intA + fractionBetween(fracA, null);
}
