// Status lists spliced into SQL text. The values are the domain's constants (src/domain), never
// input, so quoting them here is safe; callers build their SQL once, at module load, so hot paths
// run the same text as before (and partial indexes such as `where status in ('running',
// 'waiting')` still match the query's predicate).

/** `['a', 'b']` → `'a', 'b'` (for `status in (${sqlList(X)})`). */
export function sqlList(values: readonly string[]): string {
  for (const v of values) {
    if (!/^[a-z_.]+$/.test(v)) throw new Error(`sqlList: ${JSON.stringify(v)} is not a plain constant`);
  }
  return values.map((v) => `'${v}'`).join(', ');
}
