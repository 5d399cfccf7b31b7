// The store side of keyset pagination (docs/architecture.md §5.5): every list reads one page in a
// fixed order (a sort key, then the id) after a position, fetching one row more than the page to
// learn whether another page exists. `ListSql` collects a list's conditions with their parameters
// and writes the keyset condition and the ORDER BY/LIMIT tail, so the statement a list sends has
// one text per combination of filters (PostgresDb prepares by text) and walks its index as before:
// `where <filters> and (sort, id) < ($n, $m) order by sort desc, id desc limit $k`.

/** A row's place in a list's order: its sort key, and its id where the sort key is not unique. */
export interface KeysetAfter {
  sort: Date | number;
  id: string | null;
}

/** What a store needs of a page: where it starts (null: the first page) and how many rows to read. */
export interface KeysetPage {
  after: KeysetAfter | null;
  /** The page size plus one. */
  fetch: number;
}

/** A list's order over its index: `sort` then `id` (both qualified as the statement needs). */
export class KeysetOrder {
  private readonly orderBy: string;
  private readonly compare: string;

  constructor(
    readonly sort: string,
    readonly id: string | null,
    readonly direction: 'asc' | 'desc',
  ) {
    const d = direction === 'desc' ? ' desc' : '';
    this.orderBy = id === null ? `order by ${sort}${d}` : `order by ${sort}${d}, ${id}${d}`;
    this.compare = direction === 'desc' ? '<' : '>';
  }

  /** `(sort, id) < ($n, $m)`, or `sort > $n` for an ascending order on a unique key. */
  condition(firstSlot: number): string {
    return this.id === null
      ? `${this.sort} ${this.compare} $${firstSlot}`
      : `(${this.sort}, ${this.id}) ${this.compare} ($${firstSlot}, $${firstSlot + 1})`;
  }

  /** The ORDER BY clause alone (an outer query that re-sorts the page). */
  get orderClause(): string {
    return this.orderBy;
  }

  /** `order by … limit $n`. */
  tail(limitSlot: number): string {
    return `${this.orderBy} limit $${limitSlot}`;
  }
}

/**
 * One list statement's WHERE conditions and parameters, built in the order they are added. A
 * filter left undefined adds nothing, so the text depends only on which filters are in force.
 */
export class ListSql {
  readonly params: unknown[];
  private readonly conditions: string[];

  constructor(params: unknown[], conditions: string[]) {
    this.params = params;
    this.conditions = conditions;
  }

  /** `column = $n` when the value is given. */
  eq(column: string, value: unknown): this {
    if (value !== undefined) this.conditions.push(`${column} = ${this.bind(value)}`);
    return this;
  }

  /** `column >= $n` when the value is given. */
  atLeast(column: string, value: unknown): this {
    if (value !== undefined) this.conditions.push(`${column} >= ${this.bind(value)}`);
    return this;
  }

  /** A condition written around its parameter's slot, when the value is given. */
  where(value: unknown, condition: (slot: string) => string): this {
    if (value !== undefined) this.conditions.push(condition(this.bind(value)));
    return this;
  }

  /**
   * `column` contains the text, ignoring case, when it is given. strpos, not ilike: a % or _ typed
   * in a search is matched as itself, with no escaping to get wrong.
   */
  contains(column: string, text: string | undefined): this {
    if (text !== undefined) this.conditions.push(`strpos(lower(${column}), lower(${this.bind(text)}::text)) > 0`);
    return this;
  }

  /** A condition without a parameter. */
  literal(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  /** The keyset condition of a page after the first. */
  after(order: KeysetOrder, page: KeysetPage): this {
    const a = page.after;
    if (a === null) return this;
    const first = this.params.length + 1;
    if (order.id === null) this.params.push(a.sort);
    else this.params.push(a.sort, a.id);
    this.conditions.push(order.condition(first));
    return this;
  }

  /** The conditions joined with `and`. */
  get sql(): string {
    return this.conditions.join(' and ');
  }

  /** `order by … limit $n`, binding the page's row count (call last: it takes the next slot). */
  tail(order: KeysetOrder, page: KeysetPage): string {
    this.params.push(page.fetch);
    return order.tail(this.params.length);
  }

  private bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}
